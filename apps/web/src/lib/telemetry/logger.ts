import { redactDeep } from "@cohort/contracts";

export type LogLevel = "debug" | "info" | "warn" | "error";

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One buffered entry; the shape of the data model's "Log entry". */
export interface LogEntry {
  timestamp: string;
  level: LogLevel;
  message: string;
  data?: unknown;
  url?: string;
  userAgent?: string;
  userId?: string;
  sessionId?: string;
}

export interface LogContext {
  userId?: string;
  sessionId?: string;
}

type ConsoleLike = Pick<Console, "debug" | "info" | "warn" | "error">;

export interface LoggerOptions {
  /** Where entries at or above `echoLevel` are echoed; defaults to the global console. */
  console?: ConsoleLike;
  /** The lowest level echoed to the console; every level is buffered regardless. */
  echoLevel?: LogLevel;
  /** The most entries kept; the oldest are dropped first. */
  bufferLimit?: number;
  now?: () => Date;
  /** Page URL and user agent for each entry; empty outside a browser. */
  environment?: () => { url?: string; userAgent?: string };
}

export interface Logger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
  setContext(context: LogContext): void;
  /**
   * The realtime (chat) session the page has joined, put on every entry for correlation
   * (the API); kept apart from the user context, which sign-in and sign-out replace.
   */
  setSessionId(sessionId: string | undefined): void;
  /** The buffered entries, oldest first. */
  entries(): readonly LogEntry[];
  /** Returns and removes the buffered entries; the telemetry sender calls this to flush. */
  drain(): LogEntry[];
  /** Called after each entry is buffered; returns an unsubscribe function. */
  subscribe(listener: (entry: LogEntry) => void): () => void;
}

function browserEnvironment(): { url?: string; userAgent?: string } {
  if (typeof window === "undefined") return {};
  return { url: window.location.href, userAgent: window.navigator.userAgent };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.console ?? console;
  const echoRank = LEVEL_RANK[options.echoLevel ?? "warn"];
  const bufferLimit = options.bufferLimit ?? 500;
  const now = options.now ?? (() => new Date());
  const environment = options.environment ?? browserEnvironment;
  const listeners = new Set<(entry: LogEntry) => void>();
  let buffer: LogEntry[] = [];
  let context: LogContext = {};
  let realtimeSessionId: string | undefined;

  function write(level: LogLevel, message: string, data: unknown): void {
    const entry: LogEntry = {
      timestamp: now().toISOString(),
      level,
      message,
      ...environment(),
      ...context,
      ...(realtimeSessionId === undefined ? {} : { sessionId: realtimeSessionId }),
    };
    if (data !== undefined) entry.data = redactDeep(data);
    buffer.push(entry);
    if (buffer.length > bufferLimit) buffer = buffer.slice(buffer.length - bufferLimit);
    if (LEVEL_RANK[level] >= echoRank) {
      if (entry.data === undefined) out[level](`[cohort] ${message}`);
      else out[level](`[cohort] ${message}`, entry.data);
    }
    for (const listener of listeners) listener(entry);
  }

  return {
    debug: (message, data) => write("debug", message, data),
    info: (message, data) => write("info", message, data),
    warn: (message, data) => write("warn", message, data),
    error: (message, data) => write("error", message, data),
    setContext(next) {
      context = { ...next };
    },
    setSessionId(sessionId) {
      realtimeSessionId = sessionId;
    },
    entries: () => buffer,
    drain() {
      const drained = buffer;
      buffer = [];
      return drained;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The app's one logger: everything is buffered, warnings and errors reach the console, and
 * the log shipper (log-shipper.ts) sends the buffer to POST /api/logs.
 */
export const logger = createLogger({ echoLevel: import.meta.env.DEV ? "debug" : "warn" });

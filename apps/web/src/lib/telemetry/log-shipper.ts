import {
  LOG_BATCH_MAX_ENTRIES,
  LOG_BUFFER_FLUSH_SIZE,
  LOG_FLUSH_INTERVAL_MS,
  redactDeep,
  type TClientLogEntry,
  TELEMETRY_MAX_ENTRY_BYTES,
} from "@cohort/contracts";
import type { LogEntry, Logger } from "./logger";
import { KEEPALIVE_BODY_LIMIT_BYTES, type TelemetryTransport } from "./transport";

/** Entries kept for a retry after a send got no answer (or a 5xx); the oldest go first. */
const RETRY_LIMIT = 200;
const MESSAGE_MAX = 2_000;
const URL_MAX = 2_048;
const USER_AGENT_MAX = 512;
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const encoder = new TextEncoder();

function byteLength(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).length;
}

/** The API call an entry is about, when its data names one (the API client logs them so). */
function requestIdOf(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const id = (data as { requestId?: unknown }).requestId;
  return typeof id === "string" && REQUEST_ID.test(id) ? id : undefined;
}

/**
 * A buffered entry as POST /api/logs takes it: redacted (again: data set after buffering is
 * possible through mutation), cut to the server's caps so one long entry never costs the
 * whole batch its 400.
 */
export function toWireEntry(entry: LogEntry): TClientLogEntry {
  const data = entry.data === undefined ? undefined : redactDeep(entry.data);
  const wire: TClientLogEntry = {
    timestamp: entry.timestamp,
    level: entry.level,
    message: entry.message.slice(0, MESSAGE_MAX),
    ...(data === undefined ? {} : { data }),
    ...(entry.url === undefined ? {} : { url: entry.url.slice(0, URL_MAX) }),
    ...(entry.userAgent === undefined
      ? {}
      : { userAgent: entry.userAgent.slice(0, USER_AGENT_MAX) }),
    ...(entry.userId === undefined ? {} : { userId: entry.userId.slice(0, 128) }),
    ...(entry.sessionId === undefined ? {} : { sessionId: entry.sessionId.slice(0, 128) }),
  };
  const requestId = requestIdOf(data);
  if (requestId) wire.requestId = requestId;
  if (byteLength(wire) > TELEMETRY_MAX_ENTRY_BYTES) {
    wire.data = { truncated: true, preview: JSON.stringify(data).slice(0, 2_000) };
  }
  return wire;
}

export interface LogShipperDeps {
  logger: Pick<Logger, "entries" | "drain" | "subscribe">;
  transport: TelemetryTransport;
  /** POST /api/logs needs a signed-in user; until then entries stay in the buffer. */
  isSignedIn: () => boolean;
}

export interface LogShipper {
  /** Sends what is buffered now (the timer, the size rule and errors call this). */
  flush(): Promise<void>;
  /** The page is going away: whatever fits goes out with `keepalive`. */
  flushOnUnload(): void;
  stop(): void;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/**
 * The product limits: the log buffer goes to the server at 50 entries, every 30 s, at once on an error,
 * and on page unload. Debug entries stay in the browser (console and buffer) only.
 */
export function startLogShipper(deps: LogShipperDeps): LogShipper {
  let retry: TClientLogEntry[] = [];
  let sending: Promise<void> | null = null;
  let again = false;

  function take(): TClientLogEntry[] {
    const fresh = deps.logger
      .drain()
      .filter((entry) => entry.level !== "debug")
      .map(toWireEntry);
    const taken = [...retry, ...fresh];
    retry = [];
    return taken;
  }

  async function sendAll(): Promise<void> {
    const entries = take();
    for (const batch of chunks(entries, LOG_BUFFER_FLUSH_SIZE)) {
      const { status } = await deps.transport.send("/logs", { logs: batch });
      // Signed out meanwhile (expired, revoked): the rest would only be refused the same way.
      if (status === 401) return;
      // No answer or a server failure: keep them for the next flush. Anything else (sent,
      // refused as invalid, signed out, rate-limited) is final: logs must not pile up.
      if (status === 0 || status >= 500) retry = [...retry, ...batch].slice(-RETRY_LIMIT);
    }
  }

  function flush(): Promise<void> {
    if (!deps.isSignedIn()) return Promise.resolve();
    if (sending) {
      again = true;
      return sending;
    }
    sending = sendAll().finally(() => {
      sending = null;
      if (again) {
        again = false;
        void flush();
      }
    });
    return sending;
  }

  const unsubscribe = deps.logger.subscribe((entry) => {
    if (entry.level === "error" || deps.logger.entries().length >= LOG_BUFFER_FLUSH_SIZE) {
      void flush();
    }
  });
  const timer = setInterval(() => void flush(), LOG_FLUSH_INTERVAL_MS);

  return {
    flush,
    flushOnUnload() {
      if (!deps.isSignedIn()) return;
      // Newest first: if the browser's keepalive budget cannot take them all, the last
      // moments before the page closed are the ones worth keeping.
      const entries = take().reverse();
      let budget = KEEPALIVE_BODY_LIMIT_BYTES;
      const batch: TClientLogEntry[] = [];
      for (const entry of entries) {
        const size = byteLength(entry) + 1;
        if (size > budget || batch.length >= LOG_BATCH_MAX_ENTRIES) break;
        budget -= size;
        batch.unshift(entry);
      }
      if (batch.length > 0) {
        void deps.transport.send("/logs", { logs: batch }, { keepalive: true });
      }
    },
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

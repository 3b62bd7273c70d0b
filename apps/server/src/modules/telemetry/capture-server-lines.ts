import { type DestinationStream, destination } from "pino";
import type { TelemetryQueue, TelemetryRow } from "./write-telemetry-batches";

/** pino's numeric levels: 40 warn, 50 error, 60 fatal. */
const WARN = 40;
const ERROR = 50;
/** Lines logged before the queue exists (start-up) are held, up to this many. */
const EARLY_LINES_LIMIT = 1_000;
/** pino's own fields, already stored in columns or of no use in the trail. */
const STANDARD_FIELDS = new Set(["level", "time", "pid", "hostname", "service", "reqId", "msg"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ServerLineCapture {
  /** The logger's destination: everything to `target` (stdout by default), as before. */
  tee(target: DestinationStream | undefined): DestinationStream;
  /** From now on captured lines go to this queue, starting with those held until now. */
  attach(queue: TelemetryQueue): void;
}

type LogRow = TelemetryRow<"telemetry_logs">;

/** pino writes `{"level":NN,` first: info lines are skipped without parsing them. */
function levelOf(line: string): number {
  return line.startsWith('{"level":') ? Number.parseInt(line.slice(9, 11), 10) : 0;
}

function toRow(line: string): LogRow | null {
  if (levelOf(line) < WARN) return null;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  const level = typeof parsed.level === "number" ? parsed.level : 0;
  const requestId = parsed.reqId;
  if (level < WARN || typeof requestId !== "string") return null;
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!STANDARD_FIELDS.has(key)) data[key] = value;
  }
  const userId = parsed.userId;
  return {
    source: "server",
    level: level >= ERROR ? "error" : "warn",
    message: typeof parsed.msg === "string" ? parsed.msg : "",
    data: Object.keys(data).length > 0 ? data : null,
    user_id: typeof userId === "string" && UUID.test(userId) ? userId : null,
    request_id: requestId,
    logged_at: typeof parsed.time === "string" ? parsed.time : new Date().toISOString(),
  };
}

/**
 * Keeps the server's warn and error lines that belong to a request in the telemetry store, so
 * an admin sees one request's client entries and server lines together (decision 021). The
 * lines are already redacted by the logger's formatter; they go through the same batched
 * queue as client entries, never a write per line.
 */
export function captureServerLines(): ServerLineCapture {
  let queue: TelemetryQueue | undefined;
  let early: LogRow[] = [];

  function capture(line: string): void {
    const row = toRow(line);
    if (!row) return;
    if (queue) queue.push("telemetry_logs", [row]);
    else if (early.length < EARLY_LINES_LIMIT) early.push(row);
  }

  return {
    tee(target) {
      const out = target ?? destination(1);
      return {
        write(line: string) {
          out.write(line);
          capture(line);
        },
      };
    },
    attach(next) {
      queue = next;
      next.push("telemetry_logs", early);
      early = [];
    },
  };
}

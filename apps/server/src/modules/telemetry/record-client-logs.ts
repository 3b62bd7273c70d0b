import { redactDeep, redactText, type TClientLogEntry } from "@cohort/contracts";
import { redactUrl } from "../../platform/logger";
import type { TelemetryQueue, TelemetryRow } from "./write-telemetry-batches";

export interface Sender {
  /** The signed-in user; the entries' own userId is never trusted over the session. */
  userId: string | null;
  /** Already truncated (truncate-ip.ts). */
  ip: string | null;
}

/**
 * Queues a batch of client log entries. The browser redacts before sending; this redacts
 * again (the validation rules: secrets never reach a log, whatever a client does). False: queue full.
 */
export function recordClientLogs(
  queue: TelemetryQueue,
  entries: readonly TClientLogEntry[],
  sender: Sender,
): boolean {
  const rows = entries.map(
    (entry): TelemetryRow<"telemetry_logs"> => ({
      source: "client",
      level: entry.level,
      // Free text: a pasted URL or header keeps its secrets out too (decision 051).
      message: redactText(entry.message),
      data: entry.data === undefined ? null : redactDeep(entry.data),
      url: entry.url === undefined ? null : redactUrl(entry.url),
      user_agent: entry.userAgent ?? null,
      user_id: sender.userId,
      session_id: entry.sessionId ?? null,
      request_id: entry.requestId ?? null,
      ip: sender.ip,
      logged_at: entry.timestamp,
    }),
  );
  return queue.push("telemetry_logs", rows);
}

import type { TRequestTrail } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { LOG_COLUMNS, type LogRow, toStoredLogEntry } from "./log-row";

/** The most lines one trail shows; a request that logs more is misbehaving anyway. */
const TRAIL_LIMIT = 500;

/**
 * One request's whole trail, oldest first: what the browser logged about the call (entries
 * carrying its X-Request-Id) and the server's warn/error lines for it (captured from the
 * logger, capture-server-lines.ts). Entries already written only: the queue flushes within
 * TELEMETRY_FLUSH_INTERVAL_MS.
 */
export async function getRequestTrail(db: Queryable, requestId: string): Promise<TRequestTrail> {
  const { rows } = await db.query<LogRow>(
    `SELECT ${LOG_COLUMNS} FROM telemetry_logs WHERE request_id = $1
     ORDER BY logged_at, id LIMIT ${TRAIL_LIMIT}`,
    [requestId],
  );
  return { requestId, entries: rows.map(toStoredLogEntry) };
}

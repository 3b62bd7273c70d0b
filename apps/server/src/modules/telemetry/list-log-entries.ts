import type { TLogEntriesQuery, TLogEntriesResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { LOG_COLUMNS, type LogRow, toStoredLogEntry } from "./log-row";

/**
 * One page of stored log entries (client and server), newest first, filtered by level,
 * source, user, session, request id and a received-at window. For the admin's Logs view.
 */
export async function listLogEntries(
  db: Queryable,
  query: TLogEntriesQuery,
): Promise<TLogEntriesResponse> {
  const params = [
    query.level ?? null,
    query.source ?? null,
    query.userId ?? null,
    query.sessionId ?? null,
    query.requestId ?? null,
    query.from ?? null,
    query.to ?? null,
  ];
  const where = `WHERE ($1::text IS NULL OR level = $1)
    AND ($2::text IS NULL OR source = $2)
    AND ($3::uuid IS NULL OR user_id = $3)
    AND ($4::text IS NULL OR session_id = $4)
    AND ($5::text IS NULL OR request_id = $5)
    AND ($6::timestamptz IS NULL OR received_at >= $6)
    AND ($7::timestamptz IS NULL OR received_at < $7)`;
  const [page, total] = await Promise.all([
    db.query<LogRow>(
      `SELECT ${LOG_COLUMNS} FROM telemetry_logs ${where}
       ORDER BY received_at DESC, id DESC LIMIT $8 OFFSET $9`,
      [...params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM telemetry_logs ${where}`,
      params,
    ),
  ]);
  return {
    entries: page.rows.map(toStoredLogEntry),
    total: total.rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

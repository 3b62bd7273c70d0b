import type { TLogLevel, TLogSource, TStoredLogEntry } from "@cohort/contracts";

export const LOG_COLUMNS = `id::text AS id, source, level, message, data, url, user_agent,
  user_id::text AS user_id, session_id, request_id, ip, logged_at, received_at`;

export interface LogRow {
  id: string;
  source: TLogSource;
  level: TLogLevel;
  message: string;
  data: unknown;
  url: string | null;
  user_agent: string | null;
  user_id: string | null;
  session_id: string | null;
  request_id: string | null;
  ip: string | null;
  logged_at: Date;
  received_at: Date;
}

export function toStoredLogEntry(row: LogRow): TStoredLogEntry {
  return {
    id: row.id,
    source: row.source,
    level: row.level,
    message: row.message,
    data: row.data ?? null,
    url: row.url,
    userAgent: row.user_agent,
    userId: row.user_id,
    sessionId: row.session_id,
    requestId: row.request_id,
    ip: row.ip,
    timestamp: new Date(row.logged_at).toISOString(),
    receivedAt: new Date(row.received_at).toISOString(),
  };
}

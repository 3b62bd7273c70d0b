import type { TSessionsQuery, TSessionsResponse } from "@cohort/contracts";
import { isoTimestamps, prepared, type Queryable } from "../../db/client";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row";

const WHERE = "WHERE user_id = $1 AND ($2::text IS NULL OR lower(title) LIKE $2)";
/** The dashboard's call: prepared once per PostgreSQL connection; its times are only shown. */
const PAGE = isoTimestamps(
  prepared(`
  SELECT ${SESSION_COLUMNS}, count(*) OVER ()::int AS total FROM sessions ${WHERE}
  ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`),
);

/**
 * One page of the user's sessions, newest first, optionally those whose title has `q`. The
 * page and the total come from one statement (a window count); only a page past the end,
 * which has no row to carry the total, costs a second one.
 */
export async function listSessions(
  db: Queryable,
  userId: string,
  query: TSessionsQuery,
): Promise<TSessionsResponse> {
  const pattern = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%` : null;
  const page = await db.query<SessionRow & { total: number }>(PAGE, [
    userId,
    pattern,
    query.pageSize,
    (query.page - 1) * query.pageSize,
  ]);
  const total =
    page.rows[0]?.total ??
    (
      await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM sessions ${WHERE}`, [
        userId,
        pattern,
      ])
    ).rows[0]?.total ??
    0;
  return {
    sessions: page.rows.map(toSession),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

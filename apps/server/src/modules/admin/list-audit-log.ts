import type { TAdminAction, TAdminAuditQuery, TAdminAuditResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

interface Row {
  id: number | string;
  admin_id: string;
  admin_email: string;
  action: TAdminAction;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  request_id: string | null;
  created_at: Date | string;
  total: number;
}

/** One page of the audit log, newest (or oldest) first, filtered by action and target. */
export async function listAuditLog(
  db: Queryable,
  query: TAdminAuditQuery,
): Promise<TAdminAuditResponse> {
  const order = query.sort === "oldest" ? "ASC" : "DESC";
  const { rows } = await db.query<Row>(
    `SELECT id, admin_id, admin_email, action, target_type, target_id, before, after, reason,
       request_id, created_at, count(*) OVER ()::int AS total
     FROM admin_audit_log
     WHERE ($1::text IS NULL OR action = $1) AND ($2::text IS NULL OR target_id = $2)
     ORDER BY id ${order} LIMIT $3 OFFSET $4`,
    [
      query.action ?? null,
      query.targetId ?? null,
      query.pageSize,
      (query.page - 1) * query.pageSize,
    ],
  );
  return {
    entries: rows.map(({ total: _total, ...row }) => ({
      ...row,
      id: String(row.id),
      created_at: new Date(row.created_at).toISOString(),
    })),
    total: rows[0]?.total ?? (query.page === 1 ? 0 : await countAll(db, query)),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The total when the page asked for lies past the end (no row to carry the window count). */
async function countAll(db: Queryable, query: TAdminAuditQuery): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM admin_audit_log
     WHERE ($1::text IS NULL OR action = $1) AND ($2::text IS NULL OR target_id = $2)`,
    [query.action ?? null, query.targetId ?? null],
  );
  return rows[0]?.total ?? 0;
}

import type { TWorkspaceAuditPage } from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";
import { accountName } from "./list-invitations";

interface AuditRow {
  id: number | string;
  actor_id: string | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  created_at: Date | string;
  user_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** The workspace's audit log, newest first, a page of `limit` entries older than `before`. */
export async function listWorkspaceAudit(
  db: Queryable,
  workspaceId: string,
  page: { before?: number | undefined; limit: number },
): Promise<TWorkspaceAuditPage> {
  const { rows } = await db.query<AuditRow>(
    `SELECT a.id, a.actor_id, a.action, a.target, a.details, a.created_at,
            u.id AS user_id, u.display_name, u.first_name, u.last_name
     FROM workspace_audit_log a LEFT JOIN users u ON u.id = a.actor_id
     WHERE a.workspace_id = $1 AND ($2::bigint IS NULL OR a.id < $2::bigint)
     ORDER BY a.id DESC LIMIT $3`,
    [workspaceId, page.before ?? null, page.limit + 1],
  );
  return {
    entries: rows.slice(0, page.limit).map((row) => ({
      id: Number(row.id),
      actor_id: row.actor_id,
      actor_name: accountName({ ...row, inviter_id: row.user_id }),
      action: row.action,
      target: row.target,
      details: row.details,
      created_at: isoTimestamp(row.created_at),
    })),
    has_more: rows.length > page.limit,
  };
}

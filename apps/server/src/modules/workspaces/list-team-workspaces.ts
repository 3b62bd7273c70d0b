import { isoTimestamp, type Queryable } from "../../db/client";

export interface TeamWorkspaceRow {
  id: string;
  name: string;
  created_at: string;
  member_count: number;
}

/**
 * Team workspaces for the admin area, newest first, a page at a time, optionally those whose
 * name contains `q` (personal workspaces are their users' accounts, listed under Users).
 */
export async function listTeamWorkspaces(
  db: Queryable,
  query: { page: number; pageSize: number; q?: string | undefined },
): Promise<{ rows: TeamWorkspaceRow[]; total: number }> {
  const pattern = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%` : null;
  const where = "w.kind = 'team' AND ($1::text IS NULL OR lower(w.name) LIKE $1)";
  const [{ rows }, counted] = await Promise.all([
    db.query<{ id: string; name: string; created_at: Date | string; member_count: string }>(
      `SELECT w.id, w.name, w.created_at,
         (SELECT count(*) FROM workspace_members m WHERE m.workspace_id = w.id) AS member_count
       FROM workspaces w WHERE ${where}
       ORDER BY w.created_at DESC, w.id LIMIT $2 OFFSET $3`,
      [pattern, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: string }>(`SELECT count(*) AS total FROM workspaces w WHERE ${where}`, [
      pattern,
    ]),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      created_at: isoTimestamp(row.created_at),
      member_count: Number(row.member_count),
    })),
    total: Number(counted.rows[0]?.total ?? 0),
  };
}

import type { TWorkspace, TWorkspaceKind, TWorkspaceRole } from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";

interface WorkspaceRow {
  id: string;
  kind: TWorkspaceKind;
  name: string;
  role: TWorkspaceRole;
  member_count: number | string;
  created_at: Date | string;
}

/** The caller's workspaces with their role in each; `$1` is the caller. */
const SELECT_WORKSPACES = `SELECT w.id, w.kind, w.name, m.role, w.created_at,
    (SELECT count(*) FROM workspace_members c WHERE c.workspace_id = w.id) AS member_count
  FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
  WHERE m.user_id = $1`;

function toWorkspace(row: WorkspaceRow): TWorkspace {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    role: row.role,
    member_count: Number(row.member_count),
    created_at: isoTimestamp(row.created_at),
  };
}

/** Every workspace the user is a member of: the personal one first, then teams by name. */
export async function listWorkspaces(db: Queryable, userId: string): Promise<TWorkspace[]> {
  const { rows } = await db.query<WorkspaceRow>(
    `${SELECT_WORKSPACES} ORDER BY w.kind = 'team', lower(w.name), w.created_at, w.id`,
    [userId],
  );
  return rows.map(toWorkspace);
}

/** One workspace as the user sees it; null when they are not a member. */
export async function findWorkspace(
  db: Queryable,
  userId: string,
  workspaceId: string,
): Promise<TWorkspace | null> {
  const { rows } = await db.query<WorkspaceRow>(`${SELECT_WORKSPACES} AND w.id = $2`, [
    userId,
    workspaceId,
  ]);
  return rows[0] ? toWorkspace(rows[0]) : null;
}

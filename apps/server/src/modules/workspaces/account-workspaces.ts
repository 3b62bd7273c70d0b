import type { TWorkspaceKind, TWorkspaceRole } from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";

/** One of the user's memberships, with what deleting the account means for the workspace. */
export interface AccountMembership {
  workspace_id: string;
  kind: TWorkspaceKind;
  name: string;
  role: TWorkspaceRole;
  member_count: number;
  owner_count: number;
  joined_at: string;
}

/** Every workspace the user belongs to, personal first, then by when they joined. */
export async function listAccountMemberships(
  db: Queryable,
  userId: string,
): Promise<AccountMembership[]> {
  const { rows } = await db.query<Omit<AccountMembership, "joined_at"> & { joined_at: Date }>(
    `SELECT w.id AS workspace_id, w.kind, w.name, m.role, m.created_at AS joined_at,
            (SELECT count(*) FROM workspace_members x WHERE x.workspace_id = w.id)::int AS member_count,
            (SELECT count(*) FROM workspace_members x
              WHERE x.workspace_id = w.id AND x.role = 'owner')::int AS owner_count
     FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = $1
     ORDER BY w.kind = 'personal' DESC, m.created_at, w.id`,
    [userId],
  );
  return rows.map((row) => ({ ...row, joined_at: isoTimestamp(row.joined_at) }));
}

/**
 * What deleting the account does to each of its workspaces: the personal one and teams where
 * the user is the only member go with it; a team where the user is the only owner but not
 * the only member blocks the deletion (someone must be left to own it).
 */
export function planWorkspaceErasure(memberships: readonly AccountMembership[]): {
  erase: AccountMembership[];
  blocking: AccountMembership[];
} {
  return {
    erase: memberships.filter((m) => m.kind === "personal" || m.member_count === 1),
    blocking: memberships.filter(
      (m) => m.kind === "team" && m.member_count > 1 && m.role === "owner" && m.owner_count === 1,
    ),
  };
}

/**
 * Deletes workspaces with everything in them (sessions, documents' rows, memories, templates,
 * the credit account and its holds cascade). The caller has released open holds and deleted
 * documents through the documents module, whose files a cascade would leave behind.
 */
export async function deleteWorkspaces(
  db: Queryable,
  workspaceIds: readonly string[],
): Promise<number> {
  if (workspaceIds.length === 0) return 0;
  const { rowCount } = await db.query("DELETE FROM workspaces WHERE id = ANY($1::uuid[])", [
    [...workspaceIds],
  ]);
  return rowCount;
}

import { isoTimestamp, type Queryable } from "../../db/client";

export interface AccountSessionRef {
  id: string;
  title: string;
  created_at: string;
}

/**
 * The sessions a user created, in every workspace, oldest first: what "download my data" and
 * deleting an account cover. Sessions other members created in a shared team are theirs.
 */
export async function listCreatedSessions(
  db: Queryable,
  userId: string,
): Promise<AccountSessionRef[]> {
  const { rows } = await db.query<{ id: string; title: string; created_at: Date | string }>(
    "SELECT id, title, created_at FROM sessions WHERE user_id = $1 ORDER BY created_at, id",
    [userId],
  );
  return rows.map((row) => ({ ...row, created_at: isoTimestamp(row.created_at) }));
}

/** The ids of sessions a user created or that sit in any of these workspaces. */
export async function listSessionIdsOf(
  db: Queryable,
  userId: string,
  workspaceIds: readonly string[],
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM sessions WHERE user_id = $1 OR workspace_id = ANY($2::uuid[])",
    [userId, [...workspaceIds]],
  );
  return rows.map((row) => row.id);
}

import type { Queryable } from "../../db/client";
import { memberName } from "../workspaces/list-workspace-members";

/**
 * Display names of the given users, by id (never their email addresses: a share shows who
 * asked only as the name they chose). Read with one join-free statement on users, like the
 * workspace members list, rather than a profile per user.
 */
export async function findDisplayNames(
  db: Queryable,
  userIds: readonly (string | null)[],
): Promise<Map<string, string>> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{
    id: string;
    display_name: string | null;
    first_name: string;
    last_name: string;
  }>("SELECT id, display_name, first_name, last_name FROM users WHERE id = ANY($1::uuid[])", [ids]);
  return new Map(rows.map((row) => [row.id, memberName(row)]));
}

import type { Queryable } from "../../db/client";

/**
 * Deletes the user row; what hangs on it by foreign key goes with it (sign-ins, identities,
 * password, tokens, sessions, runs, CoChat, memories, keys, agreement acceptances, billing
 * rows, memberships). The credit ledger and usage rows reference nothing and stay.
 */
export async function deleteUser(db: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM users WHERE id = $1", [userId]);
  return rowCount > 0;
}

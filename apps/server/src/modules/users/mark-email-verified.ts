import type { Queryable } from "../../db/client";
import { normalizeEmail } from "./create-user";

/**
 * Marks the address verified, but only while it is still the user's address: a link sent to
 * an address the user has since changed proves nothing about the new one.
 */
export async function markEmailVerified(
  db: Queryable,
  userId: string,
  email: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now()
     WHERE id = $1 AND lower(email) = $2`,
    [userId, normalizeEmail(email)],
  );
  return rowCount > 0;
}

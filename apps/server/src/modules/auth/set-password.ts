import type { Queryable } from "../../db/client";

/** Stores (or replaces) the user's password hash. */
export async function setPasswordHash(db: Queryable, userId: string, passwordHash: string) {
  await db.query(
    `INSERT INTO password_credentials (user_id, password_hash) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`,
    [userId, passwordHash],
  );
}

/**
 * The stored hash, or null. Asked even without a user (it then matches nothing), so a sign-in
 * with an unknown address makes the same round trips as one with a known address.
 */
export async function findPasswordHash(
  db: Queryable,
  userId: string | null,
): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string }>(
    "SELECT password_hash FROM password_credentials WHERE user_id = $1",
    [userId],
  );
  return rows[0]?.password_hash ?? null;
}

import type { Queryable } from "../../db/client";

/**
 * Of these sign-ins, the ones that no longer authenticate anyone: revoked, past
 * their idle or absolute expiry, or gone (the account was deleted).
 */
export async function findEndedSignIns(db: Queryable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT given.id::text AS id
       FROM unnest($1::uuid[]) AS given (id)
       LEFT JOIN sign_ins s ON s.id = given.id
      WHERE s.id IS NULL OR s.revoked_at IS NOT NULL
         OR s.idle_expires_at <= now() OR s.expires_at <= now()`,
    [ids],
  );
  return rows.map((row) => row.id);
}

import {
  SIGN_IN_PROVIDERS,
  type TIdentityListResponse,
  type TSignInProvider,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** The ways a user can sign in: linked provider accounts, and whether a password is set. */
export async function listIdentities(
  db: Queryable,
  userId: string,
): Promise<TIdentityListResponse> {
  const { rows } = await db.query<{
    provider: TSignInProvider;
    email: string | null;
    created_at: Date | string;
    has_password: boolean;
  }>(
    `SELECT i.provider, i.email, i.created_at,
            EXISTS (SELECT 1 FROM password_credentials p WHERE p.user_id = $1) AS has_password
     FROM (SELECT 1) AS one
     LEFT JOIN user_identities i ON i.user_id = $1 AND i.provider = ANY($2::text[])
     ORDER BY i.created_at`,
    [userId, [...SIGN_IN_PROVIDERS]],
  );
  return {
    identities: rows
      .filter((row) => row.provider !== null)
      .map((row) => ({
        provider: row.provider,
        email: row.email,
        linked_at: new Date(row.created_at).toISOString(),
      })),
    hasPassword: rows[0]?.has_password ?? false,
  };
}

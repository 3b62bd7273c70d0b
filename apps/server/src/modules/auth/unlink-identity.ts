import {
  ERROR_CODES,
  IDENTITY_ERROR_CODES,
  IDENTITY_MESSAGES,
  SIGN_IN_PROVIDER_LABELS,
  SIGN_IN_PROVIDERS,
  type TSignInProvider,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";

/**
 * Removes the user's linked provider account, unless it is their last way to sign in (no
 * password and no other linked account): then 409, and nothing changes. The user's row is
 * locked first, so two unlinks at once cannot each leave the other as the last one.
 */
export async function unlinkIdentity(
  db: Db,
  userId: string,
  provider: TSignInProvider,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", [userId]);
    const { rows } = await tx.query<{ provider: string; others: number; has_password: boolean }>(
      `SELECT i.provider,
              (SELECT count(*)::int FROM user_identities o
                WHERE o.user_id = $1 AND o.provider <> $2 AND o.provider = ANY($3::text[])) AS others,
              EXISTS (SELECT 1 FROM password_credentials p WHERE p.user_id = $1) AS has_password
       FROM user_identities i WHERE i.user_id = $1 AND i.provider = $2`,
      [userId, provider, [...SIGN_IN_PROVIDERS]],
    );
    const row = rows[0];
    if (!row) {
      throw new AppError(
        ERROR_CODES.notFound,
        404,
        `No ${SIGN_IN_PROVIDER_LABELS[provider]} account is linked to your account.`,
      );
    }
    if (!row.has_password && row.others === 0) {
      throw new AppError(
        IDENTITY_ERROR_CODES.lastSignInMethod,
        409,
        IDENTITY_MESSAGES.lastSignInMethod,
      );
    }
    await tx.query("DELETE FROM user_identities WHERE user_id = $1 AND provider = $2", [
      userId,
      provider,
    ]);
  });
}

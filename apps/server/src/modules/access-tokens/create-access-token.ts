import {
  ACCESS_TOKEN_ERROR_CODES,
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKENS_PER_USER,
  ACCOUNT_DISABLED,
  type TAccessTokenInfo,
  type TCreateAccessTokenRequest,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { hashOpaqueToken, newOpaqueToken } from "../auth/opaque-token";
import {
  ACCESS_TOKEN_INFO_COLUMNS,
  type AccessTokenRow,
  toAccessTokenInfo,
} from "./access-token-row";

export interface CreatedAccessToken {
  /** The token itself: returned this once, never stored. */
  token: string;
  info: TAccessTokenInfo;
}

/** `cohort_pat_` and 256 random bits (43 base64url characters). */
export function newAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${newOpaqueToken()}`;
}

/**
 * Creates a token for the user and returns it with its list entry. Only its SHA-256 is kept
 * (decision 033). The user's row is locked while active tokens are counted, so parallel
 * creations cannot pass the per-user limit together; a disabled account gets none.
 */
export async function createAccessToken(
  db: Db,
  userId: string,
  input: TCreateAccessTokenRequest,
): Promise<CreatedAccessToken> {
  const token = newAccessToken();
  const row = await db.transaction(async (tx) => {
    const { rows: users } = await tx.query<{ disabled: boolean; active: number }>(
      `SELECT disabled_at IS NOT NULL AS disabled,
         (SELECT count(*)::int FROM access_tokens t
          WHERE t.user_id = u.id AND t.revoked_at IS NULL
            AND (t.expires_at IS NULL OR t.expires_at > now())) AS active
       FROM users u WHERE u.id = $1 FOR UPDATE`,
      [userId],
    );
    const user = users[0];
    if (!user || user.disabled) {
      throw new AppError(ACCOUNT_DISABLED.code, 403, ACCOUNT_DISABLED.message);
    }
    if (user.active >= ACCESS_TOKENS_PER_USER) {
      throw new AppError(
        ACCESS_TOKEN_ERROR_CODES.limitReached,
        409,
        ACCESS_TOKEN_MESSAGES.limitReached,
      );
    }
    const { rows } = await tx.query<AccessTokenRow>(
      `INSERT INTO access_tokens (user_id, name, token_hash, last4, scopes, expires_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL
         ELSE now() + make_interval(days => $6::int) END)
       RETURNING ${ACCESS_TOKEN_INFO_COLUMNS}`,
      [
        userId,
        input.name,
        hashOpaqueToken(token),
        token.slice(-4),
        input.scopes,
        input.expires_in_days ?? null,
      ],
    );
    return rows[0] as AccessTokenRow;
  });
  return { token, info: toAccessTokenInfo(row) };
}

import { AUTH_ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token";

export type EmailTokenPurpose = "verify_email" | "reset_password";

/** Spec leaves these open: a reset link is an hour's risk at most, a verify link two days. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  reset_password: 60 * 60_000,
  verify_email: 48 * 60 * 60_000,
};

export interface EmailTokenOwner {
  userId: string;
  email: string;
}

export async function createEmailToken(
  db: Queryable,
  purpose: EmailTokenPurpose,
  owner: EmailTokenOwner,
): Promise<string> {
  const token = newOpaqueToken();
  await db.query(
    `INSERT INTO auth_tokens (token_hash, user_id, purpose, email, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [
      hashOpaqueToken(token),
      owner.userId,
      purpose,
      owner.email,
      EMAIL_TOKEN_TTL_MS[purpose] / 1000,
    ],
  );
  return token;
}

const MESSAGES: Record<EmailTokenPurpose, { invalid: string; expired: string }> = {
  reset_password: {
    invalid: "This password reset link is invalid or has already been used. Request a new one.",
    expired: "This password reset link has expired. Request a new one.",
  },
  verify_email: {
    invalid: "This verification link is invalid or has already been used.",
    expired: "This verification link has expired. Sign in and request a new one.",
  },
};

interface TokenRow {
  user_id: string;
  email: string;
  used_at: Date | null;
  expired: boolean;
}

/** The token's owner if it is unused and unexpired; 400 `invalid_token` / `token_expired` if not. */
export async function checkEmailToken(
  db: Queryable,
  purpose: EmailTokenPurpose,
  token: string,
): Promise<EmailTokenOwner> {
  const { rows } = await db.query<TokenRow>(
    `SELECT user_id, email, used_at, expires_at <= now() AS expired
     FROM auth_tokens WHERE token_hash = $1 AND purpose = $2`,
    [hashOpaqueToken(token), purpose],
  );
  const row = rows[0];
  if (!row || row.used_at) {
    throw new AppError(AUTH_ERROR_CODES.invalidToken, 400, MESSAGES[purpose].invalid);
  }
  if (row.expired) {
    throw new AppError(AUTH_ERROR_CODES.tokenExpired, 400, MESSAGES[purpose].expired);
  }
  return { userId: row.user_id, email: row.email };
}

/**
 * Uses the token up. The conditional update is the single point of truth, so two concurrent
 * uses of one link cannot both succeed.
 */
export async function consumeEmailToken(
  db: Queryable,
  purpose: EmailTokenPurpose,
  token: string,
): Promise<EmailTokenOwner> {
  const owner = await checkEmailToken(db, purpose, token);
  const { rowCount } = await db.query(
    `UPDATE auth_tokens SET used_at = now()
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
    [hashOpaqueToken(token), purpose],
  );
  if (rowCount === 0) {
    throw new AppError(AUTH_ERROR_CODES.invalidToken, 400, MESSAGES[purpose].invalid);
  }
  return owner;
}

/** Voids the user's other outstanding links of this kind (after a reset, old links must die). */
export async function voidEmailTokens(
  db: Queryable,
  purpose: EmailTokenPurpose,
  userId: string,
): Promise<void> {
  await db.query(
    "UPDATE auth_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL",
    [userId, purpose],
  );
}

import { prepared, type Queryable } from "../../db/client";
import type { Principal } from "../../platform/auth";
import { balanceSubquery, creditsFromBalanceColumn } from "../credits/get-balance";
import { toUserProfile, USER_COLUMNS_U, type UserRow } from "../users/user-row";
import { SESSION_TOUCH_INTERVAL_MS, type SessionSettings } from "./session-settings";
import { hashOpaqueToken } from "./session-token";

interface SignInRow extends UserRow {
  session_id: string;
  last_used_at: Date | string;
  idle_expires_at: Date | string;
  expires_at: Date | string;
  balance: number | null;
}

/** Every authenticated request runs it: prepared once per PostgreSQL connection. */
const SIGN_IN = prepared(`
  SELECT s.id AS session_id, s.last_used_at, s.idle_expires_at, s.expires_at,
    ${USER_COLUMNS_U}, ${balanceSubquery("u.id")} AS balance
  FROM auth_sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = $1 AND s.revoked_at IS NULL
    AND s.idle_expires_at > now() AND s.expires_at > now()`);

/**
 * The principal behind a session token, or null when the token is unknown, revoked, or past
 * its idle or absolute expiry. Use slides the idle expiry forward, never past the absolute one.
 *
 * Every authenticated request runs this, so it is one statement: the sign-in, its user and the
 * user's balance together. Nothing of it is cached: a revoked sign-in, a deleted user or a
 * changed role takes effect on the very next request, on every instance (decision 016).
 */
export async function resolveSession(
  db: Queryable,
  token: string,
  settings: SessionSettings,
): Promise<Principal | null> {
  if (token.length < 20 || token.length > 200) return null;
  const { rows } = await db.query<SignInRow>(SIGN_IN, [hashOpaqueToken(token)]);
  const row = rows[0];
  if (!row) return null;
  let idleExpiresAt = new Date(row.idle_expires_at);
  if (Date.now() - new Date(row.last_used_at).getTime() > SESSION_TOUCH_INTERVAL_MS) {
    idleExpiresAt = await touchSession(db, row.session_id, settings);
  }
  return {
    user: toUserProfile(row, creditsFromBalanceColumn(row.balance)),
    sessionId: row.session_id,
    expiresAt: new Date(row.expires_at),
    idleExpiresAt,
  };
}

async function touchSession(db: Queryable, id: string, settings: SessionSettings): Promise<Date> {
  const { rows } = await db.query<{ idle_expires_at: Date | string }>(
    `UPDATE auth_sessions SET last_used_at = now(),
       idle_expires_at = LEAST(now() + make_interval(secs => $2), expires_at)
     WHERE id = $1 RETURNING idle_expires_at`,
    [id, settings.idleDays * 86_400],
  );
  return new Date(rows[0]?.idle_expires_at ?? Date.now());
}

import type { Queryable } from "../../db/client";
import type { Principal } from "../../platform/auth";
import { findUserById } from "../users/find-user";
import { SESSION_TOUCH_INTERVAL_MS, type SessionSettings } from "./session-settings";
import { hashOpaqueToken } from "./session-token";

interface SessionRow {
  id: string;
  user_id: string;
  last_used_at: Date | string;
}

/**
 * The principal behind a session token, or null when the token is unknown, revoked, or past
 * its idle or absolute expiry. Use slides the idle expiry forward, never past the absolute one.
 */
export async function resolveSession(
  db: Queryable,
  token: string,
  settings: SessionSettings,
): Promise<Principal | null> {
  if (token.length < 20 || token.length > 200) return null;
  const { rows } = await db.query<SessionRow>(
    `SELECT id, user_id, last_used_at FROM auth_sessions
     WHERE token_hash = $1 AND revoked_at IS NULL AND idle_expires_at > now() AND expires_at > now()`,
    [hashOpaqueToken(token)],
  );
  const session = rows[0];
  if (!session) return null;
  const user = await findUserById(db, session.user_id);
  if (!user) return null;
  if (Date.now() - new Date(session.last_used_at).getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await db.query(
      `UPDATE auth_sessions SET last_used_at = now(),
         idle_expires_at = LEAST(now() + make_interval(secs => $2), expires_at)
       WHERE id = $1`,
      [session.id, settings.idleDays * 86_400],
    );
  }
  return { user, sessionId: session.id };
}

import type { Queryable } from "../../db/client";
import type { SessionSettings } from "./session-settings";
import { hashOpaqueToken, newOpaqueToken } from "./session-token";

export interface IssuedSession {
  sessionId: string;
  token: string;
}

export async function issueSession(
  db: Queryable,
  userId: string,
  settings: SessionSettings,
  meta: { userAgent?: string | undefined; ip?: string | undefined },
): Promise<IssuedSession> {
  const token = newOpaqueToken();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO auth_sessions (user_id, token_hash, idle_expires_at, expires_at, user_agent, ip)
     VALUES ($1, $2, now() + make_interval(secs => $3), now() + make_interval(secs => $4), $5, $6)
     RETURNING id`,
    [
      userId,
      hashOpaqueToken(token),
      settings.idleDays * 86_400,
      settings.maxDays * 86_400,
      meta.userAgent?.slice(0, 512) ?? null,
      meta.ip ?? null,
    ],
  );
  return { sessionId: (rows[0] as { id: string }).id, token };
}

import type { TSignInInfo } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

interface Row {
  id: string;
  created_at: Date | string;
  last_used_at: Date | string;
  expires_at: Date | string;
  user_agent: string | null;
  ip: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** The user's active sign-ins, most recently used first. */
export async function listSignIns(
  db: Queryable,
  userId: string,
  currentSignInId: string,
): Promise<TSignInInfo[]> {
  const { rows } = await db.query<Row>(
    `SELECT id, created_at, last_used_at, LEAST(idle_expires_at, expires_at) AS expires_at,
            user_agent, ip
     FROM sign_ins
     WHERE user_id = $1 AND revoked_at IS NULL AND idle_expires_at > now() AND expires_at > now()
     ORDER BY last_used_at DESC, created_at DESC`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    created_at: iso(row.created_at),
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
    user_agent: row.user_agent,
    ip: row.ip,
    current: row.id === currentSignInId,
  }));
}

import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";

/** Revokes one of the user's sessions; false when it is not theirs or not active. */
export async function revokeSession(
  db: Queryable,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const { rowCount } = await db.query(
    `UPDATE auth_sessions SET revoked_at = now()
     WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`,
    [sessionId, userId],
  );
  return rowCount > 0;
}

/** Revokes every active session of the user; returns their ids so their sockets can be dropped. */
export async function revokeAllSessions(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE auth_sessions SET revoked_at = now()
     WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
    [userId],
  );
  return rows.map((row) => row.id);
}

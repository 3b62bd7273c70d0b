import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";

/** Revokes one of the user's sign-ins; false when it is not theirs or not active. */
export async function revokeSignIn(
  db: Queryable,
  userId: string,
  signInId: string,
): Promise<boolean> {
  if (!isUuid(signInId)) return false;
  const { rowCount } = await db.query(
    `UPDATE sign_ins SET revoked_at = now()
     WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`,
    [signInId, userId],
  );
  return rowCount > 0;
}

/** Revokes every active sign-in of the user; returns their ids so their sockets can be dropped. */
export async function revokeAllSignIns(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE sign_ins SET revoked_at = now()
     WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`,
    [userId],
  );
  return rows.map((row) => row.id);
}

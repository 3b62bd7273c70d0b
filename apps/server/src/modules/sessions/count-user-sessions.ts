import type { Queryable } from "../../db/client";

/** How many chat sessions the user created, in any workspace (the admin console's count). */
export async function countUserSessions(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    "SELECT count(*)::int AS total FROM sessions WHERE user_id = $1",
    [userId],
  );
  return rows[0]?.total ?? 0;
}

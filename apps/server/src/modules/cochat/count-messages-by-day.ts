import type { Queryable } from "../../db/client";

/** Messages users sent in CoChat per UTC day (YYYY-MM-DD) since `since`. */
export async function countMessagesByDay(db: Queryable, since: Date): Promise<Map<string, number>> {
  const { rows } = await db.query<{ day: string; messages: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS messages
     FROM cochat_messages WHERE role = 'user' AND created_at >= $1 GROUP BY 1`,
    [since],
  );
  return new Map(rows.map((row) => [row.day, row.messages]));
}

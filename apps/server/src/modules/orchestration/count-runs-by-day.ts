import type { Queryable } from "../../db/client";

/** Runs started per UTC day (YYYY-MM-DD) since `since`, for the admin overview. */
export async function countRunsByDay(db: Queryable, since: Date): Promise<Map<string, number>> {
  const { rows } = await db.query<{ day: string; runs: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS runs
     FROM runs WHERE created_at >= $1 GROUP BY 1`,
    [since],
  );
  return new Map(rows.map((row) => [row.day, row.runs]));
}

import type { Queryable } from "../../db/client";

export interface UserCounts {
  users: number;
  disabledUsers: number;
  /** Sign-ups per UTC day (YYYY-MM-DD), days without any left out. */
  signupsByDay: Map<string, number>;
}

/** Totals and sign-ups per day since `since`, for the admin overview. */
export async function countUsers(db: Queryable, since: Date): Promise<UserCounts> {
  const [totals, days] = await Promise.all([
    db.query<{ users: number; disabled: number }>(
      `SELECT count(*)::int AS users, count(disabled_at)::int AS disabled FROM users`,
    ),
    db.query<{ day: string; signups: number }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS signups
       FROM users WHERE created_at >= $1 GROUP BY 1`,
      [since],
    ),
  ]);
  return {
    users: totals.rows[0]?.users ?? 0,
    disabledUsers: totals.rows[0]?.disabled ?? 0,
    signupsByDay: new Map(days.rows.map((row) => [row.day, row.signups])),
  };
}

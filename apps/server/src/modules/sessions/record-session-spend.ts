import type { Queryable } from "../../db/client";

/** Adds what a call charged to the session's spend; returns the new total. */
export async function recordSessionSpend(
  db: Queryable,
  sessionId: string,
  credits: number,
): Promise<number> {
  const { rows } = await db.query<{ spent_credits: number }>(
    `UPDATE sessions SET spent_credits = spent_credits + $2 WHERE id = $1
     RETURNING spent_credits`,
    [sessionId, credits],
  );
  return Number(rows[0]?.spent_credits ?? 0);
}

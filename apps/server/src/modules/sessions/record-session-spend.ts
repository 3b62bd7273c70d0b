import type { Hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** Adds what a call charged to the session's spend; returns the new total. */
export async function recordSessionSpend(
  db: Queryable,
  sessionId: string,
  amount: Hundredths,
): Promise<Hundredths> {
  const { rows } = await db.query<{ spent_credits: Hundredths }>(
    `UPDATE sessions SET spent_credits = spent_credits + $2 WHERE id = $1
     RETURNING spent_credits`,
    [sessionId, amount],
  );
  return rows[0]?.spent_credits ?? (0 as Hundredths);
}

import type { Hundredths } from "@cohort/contracts";
import { prepared, type Queryable } from "../../db/client";

/**
 * The session's spend update as a part of another module's statement (the engine books a
 * call's charge, its step's end and this in one statement, decision 019): `amount` is an SQL
 * expression read from `from` (a CTE of that statement), and nothing is added unless `amount`
 * is above zero. Selects the new total as `spent_credits`.
 */
export function sessionSpendUpdate(part: { sessionId: string; amount: string; from: string }) {
  return `UPDATE sessions SET spent_credits = sessions.spent_credits + ${part.amount}
    FROM ${part.from} WHERE sessions.id = ${part.sessionId} AND ${part.amount} > 0
    RETURNING sessions.spent_credits`;
}

const RECORD_SPEND = prepared(
  `WITH charge AS (SELECT $2::bigint AS amount)
   ${sessionSpendUpdate({ sessionId: "$1", amount: "charge.amount", from: "charge" })}`,
);

/** Adds what a call charged to the session's spend; returns the new total. */
export async function recordSessionSpend(
  db: Queryable,
  sessionId: string,
  amount: Hundredths,
): Promise<Hundredths> {
  const { rows } = await db.query<{ spent_credits: Hundredths }>(RECORD_SPEND, [sessionId, amount]);
  return rows[0]?.spent_credits ?? (0 as Hundredths);
}

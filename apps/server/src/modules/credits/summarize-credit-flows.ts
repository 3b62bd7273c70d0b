import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface CreditFlowDay {
  /** Every positive ledger row: sign-up, subscription, purchase, admin grants. */
  granted: number;
  /** Usage rows (model calls), as a positive number. */
  spent: number;
  /** Distinct users with a usage row that day. */
  activeUsers: number;
}

/** Credits in and out per UTC day (YYYY-MM-DD) since `since`, from the ledger. */
export async function summarizeCreditFlows(
  db: Queryable,
  since: Date,
): Promise<Map<string, CreditFlowDay>> {
  const { rows } = await db.query<{
    day: string;
    granted: number;
    spent: number;
    active_users: number;
  }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
       COALESCE(sum(delta) FILTER (WHERE delta > 0), 0)::bigint AS granted,
       COALESCE(-sum(delta) FILTER (WHERE reason = 'usage' AND delta < 0), 0)::bigint AS spent,
       count(DISTINCT user_id) FILTER (WHERE reason = 'usage')::int AS active_users
     FROM credit_ledger WHERE created_at >= $1 GROUP BY 1`,
    [since],
  );
  return new Map(
    rows.map((row) => [
      row.day,
      {
        granted: creditsOf(hundredths(Number(row.granted))),
        spent: creditsOf(hundredths(Number(row.spent))),
        activeUsers: row.active_users,
      },
    ]),
  );
}

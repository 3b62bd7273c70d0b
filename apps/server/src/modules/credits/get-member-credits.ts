import type { TWorkspaceCredits } from "@cohort/contracts";
import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { getBalance } from "./get-balance";
import { memberUseThisMonth, THIS_MONTH_SQL } from "./member-cap";
import type { Payer } from "./payer";

/**
 * The account a payer spends from, as that payer sees it: the balance, and the payer's own
 * cap and use this month. On a personal account there is no cap, and its use is the
 * account's own (its charged usage this month and its open holds).
 */
export async function getMemberCredits(db: Queryable, payer: Payer): Promise<TWorkspaceCredits> {
  const account = await getBalance(db, payer.accountId);
  const pool = { balance: account.balance, available: account.available };
  if (payer.memberId === null) {
    const { rows } = await db.query<{ spent: number }>(
      `SELECT COALESCE(sum(credits), 0)::bigint AS spent FROM usage_events
       WHERE user_id = $1 AND created_at >= ${THIS_MONTH_SQL}`,
      [payer.accountId],
    );
    return {
      ...pool,
      my_monthly_cap: null,
      my_spent_this_month: creditsOf(hundredths(rows[0]?.spent ?? 0)),
      my_held: account.held,
    };
  }
  const [cap, use] = await Promise.all([
    getMemberCap(db, payer.accountId, payer.memberId),
    memberUseThisMonth(db, payer.accountId, payer.memberId),
  ]);
  return {
    ...pool,
    my_monthly_cap: cap,
    my_spent_this_month: creditsOf(hundredths(use.spent)),
    my_held: creditsOf(hundredths(use.held)),
  };
}

/** A member's monthly cap in credits; null: no cap. */
export async function getMemberCap(
  db: Queryable,
  accountId: string,
  memberId: string,
): Promise<number | null> {
  const { rows } = await db.query<{ monthly_cap: number | null }>(
    "SELECT monthly_cap FROM credit_member_caps WHERE account_id = $1 AND member_id = $2",
    [accountId, memberId],
  );
  const cap = rows[0]?.monthly_cap ?? null;
  return cap === null ? null : creditsOf(hundredths(cap));
}

import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface CreditBalance {
  balance: number;
  held: number;
  /** balance − held: what new holds and charges can use. */
  available: number;
}

interface AccountRow {
  user_id: string;
  balance: number;
  held: number;
}

export async function getBalance(db: Queryable, userId: string): Promise<CreditBalance> {
  const { rows } = await db.query<AccountRow>(
    "SELECT user_id, balance, held FROM credit_accounts WHERE user_id = $1",
    [userId],
  );
  const row = rows[0] ?? { user_id: userId, balance: 0, held: 0 };
  return {
    balance: creditsOf(hundredths(row.balance)),
    held: creditsOf(hundredths(row.held)),
    available: creditsOf(hundredths(row.balance - row.held)),
  };
}

/**
 * The balance (bigint hundredths) of the user whose id is the SQL expression `userIdSql`, as
 * a scalar subquery: for hot paths that fold a profile into one statement (the request guard).
 * Read its column with `creditsFromBalanceColumn`. The table stays this module's to name.
 */
export function balanceSubquery(userIdSql: string): string {
  return `(SELECT balance FROM credit_accounts WHERE user_id = ${userIdSql})`;
}

/** A `balanceSubquery` column as credits: a user with no account yet has 0. */
export function creditsFromBalanceColumn(balance: number | null): number {
  return creditsOf(hundredths(balance ?? 0));
}

/** Balances of several users at once (profiles); a user with no account yet has 0. */
export async function getCreditBalances(
  db: Queryable,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  const { rows } = await db.query<AccountRow>(
    "SELECT user_id, balance, held FROM credit_accounts WHERE user_id = ANY($1::uuid[])",
    [userIds],
  );
  return new Map(rows.map((row) => [row.user_id, creditsOf(hundredths(row.balance))]));
}

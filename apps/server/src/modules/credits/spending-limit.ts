import {
  creditsOf,
  type Hundredths,
  hundredths,
  hundredthsOf,
  type TSpendingLimit,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { THIS_MONTH_SQL } from "./member-cap";

/**
 * A user's personal monthly spending limit (migration 0030, decision 053): it counts the
 * user's calls in every wallet — their own account's holds and their holds on team pools —
 * read from the holds themselves, like a member cap: open holds their amount, settled ones
 * their charge, made this month (UTC).
 */

/** The user's limit in hundredths (null: none), locking its row until commit when it exists. */
export async function lockSpendingLimit(tx: Queryable, userId: string): Promise<Hundredths | null> {
  const { rows } = await tx.query<{ monthly_limit: number | null }>(
    "SELECT monthly_limit FROM credit_spending_limits WHERE user_id = $1 FOR UPDATE",
    [userId],
  );
  const limit = rows[0]?.monthly_limit ?? null;
  return limit === null ? null : hundredths(Number(limit));
}

/** What the user's calls took (and hold) this month in every wallet. */
export async function personalUseThisMonth(
  db: Queryable,
  userId: string,
): Promise<{ held: Hundredths; spent: Hundredths }> {
  const { rows } = await db.query<{ held: number; spent: number }>(
    `SELECT COALESCE(sum(held), 0)::bigint AS held, COALESCE(sum(spent), 0)::bigint AS spent FROM (
       SELECT amount * (status = 'open')::int AS held, charged * (status = 'settled')::int AS spent
       FROM credit_holds
       WHERE user_id = $1 AND member_id IS NULL AND created_at >= ${THIS_MONTH_SQL}
       UNION ALL
       SELECT amount * (status = 'open')::int, charged * (status = 'settled')::int
       FROM credit_holds WHERE member_id = $1 AND created_at >= ${THIS_MONTH_SQL}
     ) AS mine`,
    [userId],
  );
  const row = rows[0] ?? { held: 0, spent: 0 };
  return { held: hundredths(Number(row.held)), spent: hundredths(Number(row.spent)) };
}

/** What the limit still allows this month (null: no limit); never below 0. */
export async function personalLimitLeft(
  db: Queryable,
  userId: string,
  limit: Hundredths | null,
): Promise<Hundredths | null> {
  if (limit === null) return null;
  const use = await personalUseThisMonth(db, userId);
  return hundredths(Math.max(0, limit - use.held - use.spent));
}

function thisMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** GET /api/users/spending-limit. */
export async function getSpendingLimit(db: Queryable, userId: string): Promise<TSpendingLimit> {
  const [limitRows, use] = await Promise.all([
    db.query<{ monthly_limit: number | null }>(
      "SELECT monthly_limit FROM credit_spending_limits WHERE user_id = $1",
      [userId],
    ),
    personalUseThisMonth(db, userId),
  ]);
  const raw = limitRows.rows[0]?.monthly_limit ?? null;
  const limit = raw === null ? null : hundredths(Number(raw));
  return {
    monthly_limit_credits: limit === null ? null : creditsOf(limit),
    month: thisMonth(),
    spent_this_month: creditsOf(use.spent),
    held: creditsOf(use.held),
    remaining:
      limit === null ? null : creditsOf(hundredths(Math.max(0, limit - use.held - use.spent))),
  };
}

/**
 * PUT /api/users/spending-limit: sets (or, with null, removes) the limit. Taking the row's
 * lock makes it wait for reserves checking the old limit; a lowered limit refuses new holds
 * only, as a lowered member cap does.
 */
export async function setSpendingLimit(
  db: Queryable,
  userId: string,
  credits: number | null,
): Promise<TSpendingLimit> {
  await db.query(
    `INSERT INTO credit_spending_limits (user_id, monthly_limit) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET monthly_limit = EXCLUDED.monthly_limit, updated_at = now()`,
    [userId, credits === null ? null : hundredthsOf(credits)],
  );
  return getSpendingLimit(db, userId);
}

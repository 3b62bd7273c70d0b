import {
  creditsOf,
  type Hundredths,
  hundredths,
  WORKSPACE_CREDIT_ERROR_CODES,
  WORKSPACE_CREDIT_MESSAGES,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";

/**
 * A team member's monthly cap and use of the pool (migration 0025). What a member used in a
 * month is read from the member's holds made that month (UTC): open holds count their amount
 * (held), settled ones their charge (spent); released and expired ones nothing.
 */

/** The start of this month (UTC), as SQL. */
export const THIS_MONTH_SQL = "(date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')";

/** A month's bounds (UTC) for `YYYY-MM` given as `$n`. */
export const monthStartSql = (param: string) =>
  `((${param} || '-01')::timestamp AT TIME ZONE 'UTC')`;

export interface MemberUse {
  held: Hundredths;
  spent: Hundredths;
}

/**
 * Creates the member's cap row when there is none and locks it until commit: every team
 * reserve of the member goes through this lock first, so their cap checks follow each other.
 * Returns the cap in hundredths (null: no cap).
 */
export async function lockMemberCap(
  tx: Queryable,
  accountId: string,
  memberId: string,
): Promise<Hundredths | null> {
  const { rows } = await tx.query<{ monthly_cap: number | null }>(
    `INSERT INTO credit_member_caps (account_id, member_id) VALUES ($1, $2)
     ON CONFLICT (account_id, member_id) DO UPDATE SET account_id = EXCLUDED.account_id
     RETURNING monthly_cap`,
    [accountId, memberId],
  );
  const cap = rows[0]?.monthly_cap ?? null;
  return cap === null ? null : (cap as Hundredths);
}

/** The member's use of the pool this month (read it under `lockMemberCap` to rely on it). */
export async function memberUseThisMonth(
  db: Queryable,
  accountId: string,
  memberId: string,
): Promise<MemberUse> {
  const { rows } = await db.query<{ held: number; spent: number }>(
    `SELECT COALESCE(sum(amount) FILTER (WHERE status = 'open'), 0)::bigint AS held,
       COALESCE(sum(charged) FILTER (WHERE status = 'settled'), 0)::bigint AS spent
     FROM credit_holds
     WHERE user_id = $1 AND member_id = $2 AND created_at >= ${THIS_MONTH_SQL}`,
    [accountId, memberId],
  );
  const row = rows[0] ?? { held: 0, spent: 0 };
  return { held: row.held as Hundredths, spent: row.spent as Hundredths };
}

/** 402 `member_cap_reached`: the member's cap cannot cover the call, the pool might. */
export function memberCapReached(
  cap: Hundredths,
  used: Hundredths,
  required: Hundredths,
): AppError {
  const credits = creditsOf(hundredths(cap));
  return new AppError(
    WORKSPACE_CREDIT_ERROR_CODES.memberCapReached,
    402,
    WORKSPACE_CREDIT_MESSAGES.memberCapReached(credits),
    {
      monthly_cap: credits,
      used: creditsOf(hundredths(used)),
      required: creditsOf(hundredths(required)),
    },
  );
}

import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { monthStartSql } from "./member-cap";

/** One member's use of a team pool in one month, in credits. */
export interface MemberUsage {
  spent: number;
  held: number;
  /** Model calls: the member's settled holds and free calls (own key, free models). */
  calls: number;
  /** null: no cap. */
  monthlyCap: number | null;
}

interface UsageRow {
  member_id: string;
  spent: number;
  held: number;
  calls: number;
  monthly_cap: number | null;
}

/**
 * Every member's use of the pool in `month` (`YYYY-MM`, UTC), with their caps, by member id.
 * A member with neither use nor cap is absent (the caller shows zeros).
 */
export async function listMemberUsage(
  db: Queryable,
  accountId: string,
  month: string,
): Promise<Map<string, MemberUsage>> {
  const start = monthStartSql("$2");
  const { rows } = await db.query<UsageRow>(
    `WITH holds AS (
       SELECT member_id,
         COALESCE(sum(charged) FILTER (WHERE status = 'settled'), 0)::bigint AS spent,
         COALESCE(sum(amount) FILTER (WHERE status = 'open'), 0)::bigint AS held,
         count(*) FILTER (WHERE status = 'settled')::bigint AS calls
       FROM credit_holds
       WHERE user_id = $1 AND member_id IS NOT NULL
         AND created_at >= ${start} AND created_at < ${start} + interval '1 month'
       GROUP BY member_id
     ), free AS (
       SELECT member_id, count(*)::bigint AS calls FROM usage_events
       WHERE user_id = $1 AND member_id IS NOT NULL
         AND created_at >= ${start} AND created_at < ${start} + interval '1 month'
       GROUP BY member_id
     ), members AS (
       SELECT member_id FROM holds UNION SELECT member_id FROM free
       UNION SELECT member_id FROM credit_member_caps WHERE account_id = $1
     )
     SELECT m.member_id, COALESCE(h.spent, 0)::bigint AS spent, COALESCE(h.held, 0)::bigint AS held,
       (COALESCE(h.calls, 0) + COALESCE(f.calls, 0))::bigint AS calls, c.monthly_cap
     FROM members m
     LEFT JOIN holds h ON h.member_id = m.member_id
     LEFT JOIN free f ON f.member_id = m.member_id
     LEFT JOIN credit_member_caps c ON c.account_id = $1 AND c.member_id = m.member_id`,
    [accountId, month],
  );
  return new Map(
    rows.map((row) => [
      row.member_id,
      {
        spent: creditsOf(hundredths(row.spent)),
        held: creditsOf(hundredths(row.held)),
        calls: Number(row.calls),
        monthlyCap: row.monthly_cap === null ? null : creditsOf(hundredths(row.monthly_cap)),
      },
    ]),
  );
}

import type { Migration } from "../migrate";

/**
 * credits: a user's personal monthly spending limit (docs/decisions/053-holds-that-grow.md).
 *
 * The limit counts the user's calls in every wallet: their own account's holds (member_id
 * NULL, user_id the user) and their holds on team pools (member_id the user). As with member
 * caps (0025), the month's use is read from the holds themselves, and the limit's row is the
 * user's lock: a reserve of a user with a limit locks it first (lock order: limit row →
 * member cap row → account row). The two indexes serve that month's sum.
 */
export const spendingLimitsMigration: Migration = {
  id: "0030_spending_limits",
  sql: `
    CREATE TABLE credit_spending_limits (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      monthly_limit bigint CHECK (monthly_limit IS NULL OR monthly_limit >= 0),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX credit_holds_personal_month ON credit_holds (user_id, created_at)
      WHERE member_id IS NULL;
    CREATE INDEX credit_holds_by_member_month ON credit_holds (member_id, created_at)
      WHERE member_id IS NOT NULL;
  `,
};

import type { Migration } from "../migrate";

/**
 * credits: a user's personal monthly spending limit (docs/decisions/053-holds-that-grow.md).
 *
 * The limit counts the user's calls in every wallet: their own account's holds (member_id
 * NULL, user_id the user) and their holds on team pools (member_id the user). As with member
 * caps (0025), the month's use is read from the holds themselves, and the limit's row is the
 * user's lock: a reserve of a user with a limit locks it first (lock order: limit row →
 * member cap row → account row). The two indexes serve that month's sum.
 *
 * `credit_accounts.last_grant`: what the row's last conditional hold granted. A hold takes
 * `LEAST(wanted, balance - held)` in one UPDATE, and an UPDATE's SET expressions all read the
 * row as it was, so writing the same expression here lets that statement's RETURNING (and
 * the hold row it inserts) know the amount granted under the row's lock.
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
    ALTER TABLE credit_accounts ADD COLUMN last_grant bigint NOT NULL DEFAULT 0;
    CREATE INDEX credit_holds_by_member_month ON credit_holds (member_id, created_at)
      WHERE member_id IS NOT NULL;
  `,
};

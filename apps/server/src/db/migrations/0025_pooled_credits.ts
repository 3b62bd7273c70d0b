import type { Migration } from "../migrate";

/**
 * credits: a team workspace's pooled account and its members' monthly caps (decision 040).
 *
 * The pool is the workspace's `credit_accounts` row, held and settled like any account. A
 * hold made for a team member names that member (`credit_holds.member_id`; NULL on a personal
 * account), so what a member has used in a month is read from the holds themselves: the open
 * holds' amounts (held) plus the settled holds' charges (spent), for holds made that month
 * (UTC). There is no second counter to keep in step, so settle, release and the sweeper stay
 * the single statements they were: closing a hold moves the member's use from held to spent
 * (or back to nothing) in the very row it closes.
 *
 * `credit_member_caps` holds the cap (NULL = no cap) and is the member's lock: a team reserve
 * upserts and locks the member's row first, sums the member's month, checks the cap, then
 * runs the ordinary reserve statement (which locks the account row) in the same transaction,
 * and names the member on the new hold before commit. Reserves of one member follow each
 * other; settling and releasing only ever lower the sum, so a cap checked under that lock
 * cannot be overrun by anything running beside it. Lock order is always member row → account
 * row (a late settle of an expired hold: hold → member → account); nothing locks the other way.
 *
 * `usage_events.member_id` names the member of a free call in a team workspace (charged calls
 * name their member through their hold's reference). `billing_checkouts.workspace_id` is the
 * team pool a credit pack was bought for (NULL: the buyer's own account); a workspace deleted
 * before its payment arrives leaves NULL, and the credits go to the buyer.
 */
export const pooledCreditsMigration: Migration = {
  id: "0025_pooled_credits",
  sql: `
    ALTER TABLE credit_holds ADD COLUMN member_id uuid;
    CREATE INDEX credit_holds_member_month ON credit_holds (user_id, member_id, created_at)
      WHERE member_id IS NOT NULL;
    ALTER TABLE usage_events ADD COLUMN member_id uuid;
    CREATE INDEX usage_events_member ON usage_events (user_id, member_id, created_at)
      WHERE member_id IS NOT NULL;
    CREATE TABLE credit_member_caps (
      account_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      member_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      monthly_cap bigint CHECK (monthly_cap IS NULL OR monthly_cap >= 0),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, member_id)
    );
    ALTER TABLE billing_checkouts ADD COLUMN workspace_id uuid
      REFERENCES workspaces (id) ON DELETE SET NULL;
  `,
};

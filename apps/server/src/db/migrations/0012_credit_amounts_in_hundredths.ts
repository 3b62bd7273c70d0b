import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const creditAmountsInHundredthsMigration: Migration = {
  id: "0012_credit_amounts_in_hundredths",
  sql: `
      -- sessions, orchestration: credit amounts become integer hundredths (bigint), as in
      -- credits (docs/decisions/014-run-lifecycle-and-money.md); stored values are kept.
      ALTER TABLE sessions ALTER COLUMN budget_credits TYPE bigint
        USING round(budget_credits * 100)::bigint;
      ALTER TABLE sessions ALTER COLUMN spent_credits DROP DEFAULT;
      ALTER TABLE sessions ALTER COLUMN spent_credits TYPE bigint
        USING round(spent_credits * 100)::bigint;
      ALTER TABLE sessions ALTER COLUMN spent_credits SET DEFAULT 0;
      ALTER TABLE runs ALTER COLUMN total_credits DROP DEFAULT;
      ALTER TABLE runs ALTER COLUMN total_credits TYPE bigint
        USING round(total_credits * 100)::bigint;
      ALTER TABLE runs ALTER COLUMN total_credits SET DEFAULT 0;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits DROP DEFAULT;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits TYPE bigint
        USING round(reserved_credits * 100)::bigint;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits SET DEFAULT 0;
      ALTER TABLE run_steps ALTER COLUMN credits DROP DEFAULT;
      ALTER TABLE run_steps ALTER COLUMN credits TYPE bigint USING round(credits * 100)::bigint;
      ALTER TABLE run_steps ALTER COLUMN credits SET DEFAULT 0;
    `,
};

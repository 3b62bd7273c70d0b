import type { Migration } from "../migrate";

/**
 * orchestration: what a call's step says about money (docs/decisions/053-holds-that-grow.md).
 * `limit_kind`: the limit that stopped a call whose hold could not grow (NULL: none did);
 * `would_be_credits`: a simulated call's price when simulated calls are free (hundredths).
 */
export const stepLimitsMigration: Migration = {
  id: "0031_step_limits",
  sql: `
    ALTER TABLE run_steps ADD COLUMN limit_kind text;
    ALTER TABLE run_steps ADD COLUMN would_be_credits bigint;
  `,
};

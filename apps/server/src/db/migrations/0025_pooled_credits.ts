import type { Migration } from "../migrate";

/** credits: per-member monthly caps on a team workspace's pooled credits (helper H-pool fills this) */
export const pooledCreditsMigration: Migration = {
  id: "0025_pooled_credits",
  sql: `
    SELECT 1;
  `,
};

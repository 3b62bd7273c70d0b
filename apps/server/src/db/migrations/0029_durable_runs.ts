import type { Migration } from "../migrate";

/**
 * orchestration: durable runs (docs/decisions/047-durable-runs.md). How often a run was taken
 * over after its instance stopped: a run that keeps killing the instances it runs on ends as
 * failed instead of being resumed for ever.
 */
export const durableRunsMigration: Migration = {
  id: "0029_durable_runs",
  sql: `
    ALTER TABLE runs ADD COLUMN resume_count integer NOT NULL DEFAULT 0;
  `,
};

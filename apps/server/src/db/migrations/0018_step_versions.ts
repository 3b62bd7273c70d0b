import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const stepVersionsMigration: Migration = {
  id: "0018_step_versions",
  sql: `
      -- orchestration: a plan step re-run on another model or temperature is a new step row
      -- of the same run, numbered (docs/decisions/031-chat-actions-and-step-reruns.md).
      ALTER TABLE run_steps ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE run_steps ADD COLUMN rerun_of uuid;
      ALTER TABLE run_steps ADD COLUMN temperature real;
      ALTER TABLE run_steps ADD COLUMN critic_score numeric(4, 1);
      -- One re-run at a time per run, whichever instance starts it.
      CREATE UNIQUE INDEX run_steps_one_rerun_per_run ON run_steps (run_id)
        WHERE status = 'running' AND rerun_of IS NOT NULL AND kind = 'agent';
    `,
};

import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const synthesisVersionsMigration: Migration = {
  id: "0019_synthesis_versions",
  sql: `
      -- orchestration: a run's answer re-written with a step's re-run version is a synthesis
      -- row linked to that re-run; it is one piece of work on the run like the re-run itself
      -- (docs/decisions/031-chat-actions-and-step-reruns.md).
      DROP INDEX run_steps_one_rerun_per_run;
      CREATE UNIQUE INDEX run_steps_one_rerun_per_run ON run_steps (run_id)
        WHERE status = 'running' AND rerun_of IS NOT NULL AND kind IN ('agent', 'synthesis');
    `,
};

import type { Migration } from "../migrate";

/**
 * orchestration: what a person says to a running run (decision 069): a lane steered with a
 * note or skipped, and messages queued for the coordinator's next step boundary. Stored, so
 * the instance running the run finds them however the request reached the cluster, and a
 * resumed run still sees what it had been told.
 */
export const runInterventionsMigration: Migration = {
  id: "0045_run_interventions",
  sql: `
    CREATE TABLE run_interventions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('steer', 'skip', 'message')),
      step_id text,
      note text NOT NULL DEFAULT '',
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_by_name text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      announced_at timestamptz,
      taken_at timestamptz,
      taken_step_id text
    );
    CREATE INDEX run_interventions_run ON run_interventions (run_id, created_at);
  `,
};

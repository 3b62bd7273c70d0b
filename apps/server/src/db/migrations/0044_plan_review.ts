import type { Migration } from "../migrate";

/**
 * orchestration: plan review (decision 069). A run of a session with "Review the plan first"
 * waits in `planned` until a person starts it; the wait is a `plan_reviews` row with the same
 * status and expiry columns as a tool approval, so it is the same durable pause (decision 059).
 */
export const planReviewMigration: Migration = {
  id: "0044_plan_review",
  sql: `
    ALTER TABLE sessions ADD COLUMN review_plan boolean NOT NULL DEFAULT false;
    ALTER TABLE runs DROP CONSTRAINT runs_status_check;
    ALTER TABLE runs ADD CONSTRAINT runs_status_check CHECK (status IN
      ('queued', 'planning', 'planned', 'running', 'reviewing', 'synthesizing', 'completed', 'failed', 'cancelled'));
    DROP INDEX runs_one_active_per_session;
    CREATE UNIQUE INDEX runs_one_active_per_session ON runs (session_id)
      WHERE status IN ('queued', 'planning', 'planned', 'running', 'reviewing', 'synthesizing');
    CREATE TABLE plan_reviews (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      run_id uuid NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'started', 'expired', 'cancelled')),
      plan jsonb NOT NULL,
      started_plan jsonb,
      edited boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      expires_at timestamptz NOT NULL,
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_by_name text,
      decided_at timestamptz
    );
  `,
};

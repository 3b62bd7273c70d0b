import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const orchestrationMigration: Migration = {
  id: "0009_orchestration",
  sql: `
      -- orchestration: runs, their model calls (steps) and their events with per-session seq.
      CREATE TABLE runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        message_id uuid NOT NULL,
        result_message_id uuid,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN
          ('queued', 'planning', 'running', 'reviewing', 'synthesizing', 'completed', 'failed', 'cancelled')),
        mode text NOT NULL CHECK (mode IN ('automatic', 'manual')),
        coordinator_model text NOT NULL,
        plan jsonb,
        critic_score numeric(4, 1),
        total_credits numeric(12, 2) NOT NULL DEFAULT 0,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        error_code text,
        error_message text,
        first_seq bigint,
        instance_id text NOT NULL,
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz
      );
      CREATE INDEX runs_session ON runs (session_id, created_at);
      -- One run at a time per session, whichever instance starts it.
      CREATE UNIQUE INDEX runs_one_active_per_session ON runs (session_id)
        WHERE status IN ('queued', 'planning', 'running', 'reviewing', 'synthesizing');
      CREATE TABLE run_steps (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('plan', 'agent', 'critic', 'revision', 'synthesis')),
        step_id text,
        role text,
        model text NOT NULL,
        model_name text NOT NULL,
        provider text,
        simulated boolean,
        key_source text,
        status text NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'completed', 'failed', 'stopped')),
        stopped boolean NOT NULL DEFAULT false,
        hold_id uuid,
        reserved_credits numeric(12, 2) NOT NULL DEFAULT 0,
        credits numeric(12, 2) NOT NULL DEFAULT 0,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        latency_ms integer,
        ttft_ms integer,
        output text NOT NULL DEFAULT '',
        error_code text,
        error_message text,
        started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz
      );
      CREATE INDEX run_steps_run ON run_steps (run_id, started_at);
      CREATE TABLE run_event_counters (
        session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        last_seq bigint NOT NULL
      );
      CREATE TABLE run_events (
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        run_id uuid NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
};

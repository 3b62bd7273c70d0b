import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const sessionsMigration: Migration = {
  id: "0008_sessions",
  sql: `
      -- sessions: a user's multi-agent conversations and their messages.
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        coordinator_model text NOT NULL,
        manual_agent_selection boolean NOT NULL DEFAULT false,
        agent_preferences jsonb,
        status text NOT NULL DEFAULT 'active'
          CHECK (status IN ('active', 'paused', 'completed', 'archived')),
        budget_credits numeric(12, 2) CHECK (budget_credits IS NULL OR budget_credits > 0),
        spent_credits numeric(12, 2) NOT NULL DEFAULT 0 CHECK (spent_credits >= 0),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX sessions_user_created ON sessions (user_id, created_at DESC, id);
      CREATE TABLE session_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        run_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX session_messages_session ON session_messages (session_id, created_at, id);
    `,
};

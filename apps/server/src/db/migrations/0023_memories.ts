import type { Migration } from "../migrate";

/**
 * memory: what the coordinator proposed after a run and the user approved, rejected or
 * edited (decision 038). The source run and session are kept as plain ids, without a
 * foreign key: an approved memory outlives the session it came from. Rejected proposals
 * stay, so the same line is not proposed again. `search` is the same English full-text
 * search as documents, on PGlite and PostgreSQL alike.
 */
export const memoriesMigration: Migration = {
  id: "0023_memories",
  sql: `
    CREATE TABLE memories (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- The order memories were stored in (a run's proposals share a timestamp).
      seq bigint GENERATED ALWAYS AS IDENTITY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 300),
      kind text NOT NULL CHECK (kind IN ('fact', 'preference')),
      status text NOT NULL CHECK (status IN ('proposed', 'approved', 'rejected')),
      source_session_id uuid,
      source_run_id uuid,
      search tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE UNIQUE INDEX memories_user_text_key ON memories (user_id, lower(text));
    CREATE INDEX memories_user_status ON memories (user_id, status, updated_at DESC);
    CREATE INDEX memories_source_run ON memories (source_run_id);
    CREATE INDEX memories_search ON memories USING gin (search);

    CREATE TABLE memory_settings (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      paused boolean NOT NULL DEFAULT false,
      auto_save boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};

import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const cochatMigration: Migration = {
  id: "0011_cochat",
  sql: `
      -- cochat: single-model conversations. The id is the client's session_id
      -- (cochat-{timestamp} by default), unique per user.
      CREATE TABLE cochat_conversations (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        id text NOT NULL,
        title text NOT NULL,
        model text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (user_id, id)
      );
      CREATE INDEX cochat_conversations_recent ON cochat_conversations (user_id, updated_at DESC);
      CREATE TABLE cochat_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        conversation_id text NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        model text,
        model_name text,
        provider text,
        simulated boolean,
        key_source text,
        status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'stopped', 'failed')),
        error_code text,
        error_message text,
        input_tokens integer,
        output_tokens integer,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (user_id, conversation_id)
          REFERENCES cochat_conversations (user_id, id) ON DELETE CASCADE
      );
      CREATE INDEX cochat_messages_conversation
        ON cochat_messages (user_id, conversation_id, created_at, id);
    `,
};

import type { Migration } from "../migrate";

/**
 * sessions + orchestration (decision 070): a conversation's branches. A user message follows
 * the run it was sent after (`parent_run_id`); messages with one parent are versions of a
 * turn, runs of one message versions of its answer, and the one shown in each group is the
 * one with the latest `shown_at`. Existing conversations become one straight branch: each
 * user message follows the newest run of the user message before it.
 */
export const messageBranchesMigration: Migration = {
  id: "0046_message_branches",
  sql: `
    ALTER TABLE session_messages ADD COLUMN parent_run_id uuid;
    ALTER TABLE session_messages ADD COLUMN shown_at timestamptz NOT NULL DEFAULT clock_timestamp();
    UPDATE session_messages SET shown_at = created_at;
    ALTER TABLE runs ADD COLUMN shown_at timestamptz NOT NULL DEFAULT clock_timestamp();
    UPDATE runs SET shown_at = created_at;
    UPDATE session_messages m SET parent_run_id = (
      SELECT r.id FROM session_messages p JOIN runs r ON r.message_id = p.id
      WHERE p.session_id = m.session_id AND p.role = 'user'
        AND (p.created_at < m.created_at OR (p.created_at = m.created_at AND p.id < m.id))
      ORDER BY p.created_at DESC, p.id DESC, r.created_at DESC, r.id DESC
      LIMIT 1
    )
    WHERE m.role = 'user';
  `,
};

import type { Migration } from "../migrate";

/**
 * cochat (decision 068): a conversation is a tree of versions. Each message follows its
 * parent (null: the first message); an edited question is a sibling of the one it replaces,
 * a regenerated answer a sibling of the answer. `current_leaf` is the last message of the
 * branch on screen; what is shown, and what the model is sent, is the path up to it.
 * Existing conversations become one straight line, their last message on screen.
 */
export const cochatVersionsMigration: Migration = {
  id: "0043_cochat_versions",
  sql: `
    ALTER TABLE cochat_messages
      ADD COLUMN parent_id uuid REFERENCES cochat_messages (id) ON DELETE CASCADE;
    ALTER TABLE cochat_conversations ADD COLUMN current_leaf uuid;
    WITH ordered AS (
      SELECT id, lag(id) OVER (
        PARTITION BY user_id, conversation_id
        ORDER BY created_at, CASE role WHEN 'user' THEN 0 ELSE 1 END, id
      ) AS parent
      FROM cochat_messages
    )
    UPDATE cochat_messages m SET parent_id = o.parent FROM ordered o
      WHERE m.id = o.id AND o.parent IS NOT NULL;
    UPDATE cochat_conversations c SET current_leaf = (
      SELECT m.id FROM cochat_messages m
      WHERE m.user_id = c.user_id AND m.conversation_id = c.id
      ORDER BY m.created_at DESC, CASE m.role WHEN 'user' THEN 1 ELSE 0 END, m.id DESC
      LIMIT 1
    );
    CREATE INDEX cochat_messages_parent ON cochat_messages (parent_id);
  `,
};

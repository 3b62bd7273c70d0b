import type { TCochatConversation } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { type ConversationRow, toConversation } from "./conversation-row";

export const CONVERSATIONS_LIMIT = 100;

/** The user's conversations, most recently active first. */
export async function listConversations(
  db: Queryable,
  userId: string,
): Promise<TCochatConversation[]> {
  const { rows } = await db.query<ConversationRow>(
    `SELECT c.id, c.title, c.model, c.created_at, c.updated_at,
            (SELECT count(*) FROM cochat_messages m
              WHERE m.user_id = c.user_id AND m.conversation_id = c.id)::int AS message_count
     FROM cochat_conversations c
     WHERE c.user_id = $1
     ORDER BY c.updated_at DESC, c.id
     LIMIT ${CONVERSATIONS_LIMIT}`,
    [userId],
  );
  return rows.map(toConversation);
}

import { ERROR_CODES, type TCochatConversationResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import {
  type ConversationRow,
  MESSAGE_COLUMNS,
  type MessageRow,
  toConversation,
  toStoredMessage,
} from "./conversation-row";

export function conversationNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This conversation does not exist.");
}

/** One of the user's conversations with its messages, oldest first; 404 for anyone else's. */
export async function getConversation(
  db: Queryable,
  userId: string,
  conversationId: string,
): Promise<TCochatConversationResponse> {
  const { rows } = await db.query<ConversationRow>(
    `SELECT id, title, model, created_at, updated_at, 0 AS message_count
     FROM cochat_conversations WHERE user_id = $1 AND id = $2`,
    [userId, conversationId],
  );
  const row = rows[0];
  if (!row) throw conversationNotFound();
  // A turn's question and answer can share a timestamp (the question is stored as the first
  // token goes out, and PGlite's clock is coarse): within one, the question comes first.
  const messages = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM cochat_messages
     WHERE user_id = $1 AND conversation_id = $2
     ORDER BY created_at, CASE role WHEN 'user' THEN 0 ELSE 1 END, id`,
    [userId, conversationId],
  );
  return {
    conversation: toConversation({ ...row, message_count: messages.rows.length }),
    messages: messages.rows.map(toStoredMessage),
  };
}

import type { Queryable } from "../../db/client";
import { conversationNotFound } from "./get-conversation";

/** Deletes one of the user's conversations and its messages; 404 when there is none. */
export async function deleteConversation(
  db: Queryable,
  userId: string,
  conversationId: string,
): Promise<void> {
  const { rowCount } = await db.query(
    "DELETE FROM cochat_conversations WHERE user_id = $1 AND id = $2",
    [userId, conversationId],
  );
  if (rowCount === 0) throw conversationNotFound();
}

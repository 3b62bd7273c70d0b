import type { TCochatConversationResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { getConversation } from "./get-conversation";

/**
 * Every conversation of the user with its messages, oldest first, for "download my data".
 * The sidebar's list stops at the newest hundred; a copy of one's data must not.
 */
export async function listAllConversations(
  db: Queryable,
  userId: string,
): Promise<TCochatConversationResponse[]> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM cochat_conversations WHERE user_id = $1 ORDER BY created_at, id",
    [userId],
  );
  const conversations: TCochatConversationResponse[] = [];
  for (const row of rows) conversations.push(await getConversation(db, userId, row.id));
  return conversations;
}

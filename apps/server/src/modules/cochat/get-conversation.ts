import type { TCochatConversationResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import {
  type ConversationRow,
  conversationNotFound,
  toConversation,
  toStoredMessage,
} from "./conversation-row";
import { branchOnScreen, loadTree, versionsOf } from "./conversation-tree";

export { conversationNotFound };

/**
 * One of the user's conversations with the messages of the branch on screen, oldest first,
 * each with its versions (decision 068); 404 for anyone else's.
 */
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
  const tree = await loadTree(db, userId, conversationId);
  const branch = branchOnScreen(tree);
  return {
    conversation: toConversation({ ...row, message_count: tree.byId.size }),
    messages: branch.map((m) =>
      toStoredMessage(m, { parentId: m.parent_id, versionIds: versionsOf(tree, m) }),
    ),
  };
}

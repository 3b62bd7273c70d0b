import type { TCochatConversationResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { toStoredMessage } from "./conversation-row";
import { loadTree, versionsOf } from "./conversation-tree";
import { getConversation } from "./get-conversation";

/**
 * Every conversation of the user with its messages, oldest first, for "download my data".
 * The sidebar's list stops at the newest hundred; a copy of one's data must not. Every
 * version of every message is in it (decision 068), not only the branch on screen: each
 * names its parent and its versions, so the tree can be rebuilt.
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
  for (const row of rows) {
    const { conversation } = await getConversation(db, userId, row.id);
    const tree = await loadTree(db, userId, row.id);
    const messages = [...tree.byId.values()].map((m) =>
      toStoredMessage(m, { parentId: m.parent_id, versionIds: versionsOf(tree, m) }),
    );
    conversations.push({ conversation, messages });
  }
  return conversations;
}

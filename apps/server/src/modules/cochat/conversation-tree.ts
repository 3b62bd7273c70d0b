import type { TCochatMessage } from "@cohort/contracts";
import { COCHAT_MAX_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { conversationNotFound, MESSAGE_COLUMNS, type MessageRow } from "./conversation-row";

/**
 * A conversation's messages as a tree of versions (decision 068): each message follows its
 * parent; messages with the same parent are versions of one another (an edited question, a
 * regenerated answer). The branch on screen is the path from the first message to the
 * conversation's `current_leaf`.
 */
export interface TreeMessage extends MessageRow {
  parent_id: string | null;
}

export interface ConversationTree {
  model: string;
  byId: Map<string, TreeMessage>;
  /** Children by parent id ("" for the first messages), oldest first. */
  children: Map<string, TreeMessage[]>;
  currentLeaf: string | null;
}

export function messageNotFound(): AppError {
  return new AppError(
    ERROR_CODES.notFound,
    404,
    "This message does not exist in this conversation.",
  );
}

const order = (a: TreeMessage, b: TreeMessage) => {
  const t = new Date(a.created_at).getTime() - new Date(b.created_at).getTime();
  if (t !== 0) return t;
  if (a.role !== b.role) return a.role === "user" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/** The user's conversation as a tree; 404 for anyone else's. */
export async function loadTree(
  db: Queryable,
  userId: string,
  conversationId: string,
): Promise<ConversationTree> {
  const head = await db.query<{ model: string; current_leaf: string | null }>(
    "SELECT model, current_leaf FROM cochat_conversations WHERE user_id = $1 AND id = $2",
    [userId, conversationId],
  );
  const conversation = head.rows[0];
  if (!conversation) throw conversationNotFound();
  const { rows } = await db.query<TreeMessage>(
    `SELECT ${MESSAGE_COLUMNS}, parent_id FROM cochat_messages
     WHERE user_id = $1 AND conversation_id = $2`,
    [userId, conversationId],
  );
  rows.sort(order);
  const byId = new Map(rows.map((m) => [m.id, m]));
  const children = new Map<string, TreeMessage[]>();
  for (const m of rows) {
    const key = m.parent_id ?? "";
    children.set(key, [...(children.get(key) ?? []), m]);
  }
  return { model: conversation.model, byId, children, currentLeaf: conversation.current_leaf };
}

/** The newest last message under `id` (following the newest child at each step). */
export function leafUnder(tree: ConversationTree, id: string): string {
  let at = id;
  for (;;) {
    const next = tree.children.get(at)?.at(-1);
    if (!next) return at;
    at = next.id;
  }
}

/** The branch on screen, first message first. */
export function branchOnScreen(tree: ConversationTree): TreeMessage[] {
  let leaf = tree.currentLeaf && tree.byId.has(tree.currentLeaf) ? tree.currentLeaf : null;
  if (!leaf) {
    const newestRoot = tree.children.get("")?.at(-1);
    if (!newestRoot) return [];
    leaf = leafUnder(tree, newestRoot.id);
  }
  return pathTo(tree, leaf);
}

/** The messages from the first one down to `id`, inclusive. */
export function pathTo(tree: ConversationTree, id: string): TreeMessage[] {
  const path: TreeMessage[] = [];
  let at: TreeMessage | undefined = tree.byId.get(id);
  while (at) {
    path.push(at);
    at = at.parent_id ? tree.byId.get(at.parent_id) : undefined;
  }
  return path.reverse();
}

/** A message's versions: itself and its siblings, oldest first. */
export function versionsOf(tree: ConversationTree, message: TreeMessage): string[] {
  return (tree.children.get(message.parent_id ?? "") ?? []).map((m) => m.id);
}

/**
 * What the model is sent for the path: its messages with text (an answer that never came is
 * left out), at most the request limit, newest kept.
 */
export function contextOf(path: readonly TreeMessage[]): TCochatMessage[] {
  return path
    .filter((m) => m.content.trim().length > 0)
    .map((m) => ({ role: m.role, content: m.content }))
    .slice(-COCHAT_MAX_MESSAGES);
}

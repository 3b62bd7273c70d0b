import type { Db } from "../../db/client";
import { titleOf } from "./conversation-row";

export interface StartTurnInput {
  userId: string;
  conversationId: string;
  model: string;
  /** Names a new conversation; an existing one keeps its title. */
  firstUserMessage: string;
  userMessage: string;
  /**
   * The message the new one follows (decision 068): null for a first message (or a new
   * version of one), undefined for "the last message of the branch on screen".
   */
  parentId?: string | null | undefined;
}

/**
 * Stores the user's new message, creating the conversation on its first turn, and puts it
 * on screen (the conversation's `current_leaf`); returns its id. answerCochat calls it as the
 * model's first token goes out (or when the call ends without one), so the conversation shows
 * up in the list as soon as it answers and the write never delays it.
 */
export async function startTurn(db: Db, input: StartTurnInput): Promise<string> {
  return db.transaction(async (tx) => {
    const { rows: conversation } = await tx.query<{ current_leaf: string | null }>(
      `INSERT INTO cochat_conversations (user_id, id, title, model) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, id) DO UPDATE SET model = EXCLUDED.model, updated_at = clock_timestamp()
       RETURNING current_leaf`,
      [input.userId, input.conversationId, titleOf(input.firstUserMessage), input.model],
    );
    const parentId =
      input.parentId === undefined ? (conversation[0]?.current_leaf ?? null) : input.parentId;
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO cochat_messages (user_id, conversation_id, role, content, parent_id)
       VALUES ($1, $2, 'user', $3, $4) RETURNING id`,
      [input.userId, input.conversationId, input.userMessage, parentId],
    );
    const id = (rows[0] as { id: string }).id;
    await tx.query(
      "UPDATE cochat_conversations SET current_leaf = $3 WHERE user_id = $1 AND id = $2",
      [input.userId, input.conversationId, id],
    );
    return id;
  });
}

import type { Db } from "../../db/client";
import { titleOf } from "./conversation-row";

export interface StartTurnInput {
  userId: string;
  conversationId: string;
  model: string;
  /** Names a new conversation; an existing one keeps its title. */
  firstUserMessage: string;
  userMessage: string;
}

/**
 * Stores the user's new message, creating the conversation on its first turn. answerCochat
 * calls it as the model's first token goes out (or when the call ends without one), so the
 * conversation shows up in the list as soon as it answers and the write never delays it.
 */
export async function startTurn(db: Db, input: StartTurnInput): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO cochat_conversations (user_id, id, title, model) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, id) DO UPDATE SET model = EXCLUDED.model, updated_at = clock_timestamp()`,
      [input.userId, input.conversationId, titleOf(input.firstUserMessage), input.model],
    );
    await tx.query(
      `INSERT INTO cochat_messages (user_id, conversation_id, role, content)
       VALUES ($1, $2, 'user', $3)`,
      [input.userId, input.conversationId, input.userMessage],
    );
  });
}

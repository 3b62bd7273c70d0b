import type { Db } from "../../db/client";

export interface FinishTurnInput {
  userId: string;
  conversationId: string;
  content: string;
  status: "complete" | "stopped" | "failed";
  model: string;
  modelName: string;
  provider: string;
  simulated: boolean;
  keySource: string | null;
  error?: { code: string; message: string } | undefined;
  usage?: { inputTokens: number; outputTokens: number } | undefined;
  /** The question it answers (decision 068); null when that could not be stored. */
  parentId: string | null;
}

/**
 * Stores the model's answer (complete, or what arrived before a stop or a failure) and puts
 * it on screen: the branch on screen now ends with it (decision 068).
 */
export async function finishTurn(db: Db, input: FinishTurnInput): Promise<string> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO cochat_messages
         (user_id, conversation_id, role, content, model, model_name, provider, simulated,
          key_source, status, error_code, error_message, input_tokens, output_tokens, parent_id)
       VALUES ($1, $2, 'assistant', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING id`,
      [
        input.userId,
        input.conversationId,
        input.content,
        input.model,
        input.modelName,
        input.provider,
        input.simulated,
        input.keySource,
        input.status,
        input.error?.code ?? null,
        input.error?.message ?? null,
        input.usage?.inputTokens ?? null,
        input.usage?.outputTokens ?? null,
        input.parentId,
      ],
    );
    const id = (rows[0] as { id: string }).id;
    await tx.query(
      `UPDATE cochat_conversations SET updated_at = clock_timestamp(), current_leaf = $3
       WHERE user_id = $1 AND id = $2`,
      [input.userId, input.conversationId, id],
    );
    return id;
  });
}

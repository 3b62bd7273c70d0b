import { hundredthsOf } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface UsageInput {
  userId: string;
  /** The call's reference (its hold's reference when it was charged); unique. */
  reference: string;
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  /** Credits charged for the call; 0 on the user's own key. */
  credits: number;
  /** The providers' list price in US dollars; by the catalogue's unit, credits / 100. */
  costUsd?: number;
  /** The team member who made the call on the pool (`userId`); absent on a personal account. */
  memberId?: string | null;
}

/**
 * Records a model call for the usage statistics (calls on the user's own key too, which cost
 * no credits). Recording the same reference again changes nothing.
 */
export async function recordUsage(db: Queryable, usage: UsageInput): Promise<boolean> {
  return insertUsage(db, usage);
}

export async function insertUsage(db: Queryable, usage: UsageInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO usage_events
       (user_id, reference, model, provider, input_tokens, output_tokens, credits, cost_usd,
        member_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (reference) DO NOTHING`,
    [
      usage.userId,
      usage.reference,
      usage.model,
      usage.provider,
      Math.max(0, Math.round(usage.inputTokens)),
      Math.max(0, Math.round(usage.outputTokens)),
      hundredthsOf(usage.credits),
      Math.max(0, usage.costUsd ?? usage.credits / 100).toFixed(6),
      usage.memberId ?? null,
    ],
  );
  return rowCount > 0;
}

import type { FastifyInstance } from "fastify";
import { creditsDeps } from "../credits/credits-deps";
import type { Payer } from "../credits/payer";
import { recordUsage } from "../credits/record-usage";
import { releaseHold } from "../credits/release-hold";
import { reserveCredits } from "../credits/reserve-credits";
import { settleHoldWithUsage } from "../credits/settle-hold";
import type { ModelCallInput, ModelCallResult } from "../models/gateway";

/**
 * The memory call, paid like every other model call (decision 038): its worst case is held
 * before it starts, the actual price settled after, the hold released when it fails; on the
 * user's own key it costs nothing and only its usage is recorded. The reference
 * `memory:<runId>` makes a second attempt for the same run reuse the same hold.
 * Throws `insufficient_credits` when the balance cannot cover the worst case. Paid like the
 * run it follows: from the run's workspace (a team's pool, within the member's cap).
 */
export async function chargeMemoryCall(
  app: FastifyInstance,
  payer: Payer,
  reference: string,
  input: ModelCallInput,
): Promise<ModelCallResult> {
  const deps = creditsDeps(app);
  const estimate = app.models.estimateCall(input);
  const hold =
    estimate.worstCaseCredits > 0
      ? await reserveCredits(deps, payer, estimate.worstCaseCredits, reference)
      : null;
  let result: ModelCallResult;
  try {
    result = await app.models.streamModel(input);
  } catch (error) {
    if (hold) await releaseHold(deps, hold.id);
    throw error;
  }
  const usage = {
    model: result.modelId,
    provider: result.provider,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
  };
  if (hold) await settleHoldWithUsage(deps, hold.id, result.credits, usage);
  else {
    await recordUsage(app.db, {
      userId: payer.accountId,
      memberId: payer.memberId,
      reference,
      credits: 0,
      ...usage,
    });
  }
  return result;
}

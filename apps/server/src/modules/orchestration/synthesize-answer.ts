import { type Hundredths, RUN_ERROR_CODES, type TRunPlanView } from "@cohort/contracts";
import type { ModelCallResult } from "../models/gateway";
import { type CallSpec, callModel } from "./call-model";
import type { DraftText } from "./prompts";
import {
  messagesFor,
  SYNTHESIS_MAX_OUTPUT_TOKENS,
  SYNTHESIS_SYSTEM,
  synthesisContent,
} from "./prompts";
import type { Review } from "./review-drafts";
import type { Draft } from "./run-agents";
import { failed, haltRun, type RunContext } from "./run-context";

export interface FinalAnswer {
  callId: string;
  result: ModelCallResult;
  charged: Hundredths;
}

/** The synthesis: the coordinator streams the final answer from the drafts and the review. */
export async function synthesizeAnswer(
  ctx: RunContext,
  plan: TRunPlanView,
  drafts: Map<string, Draft>,
  review: Review | null,
): Promise<FinalAnswer> {
  const usable = plan.steps.flatMap((s) => {
    const d = drafts.get(s.id);
    return d?.ok ? [d] : [];
  });
  const outcome = await callModel(ctx, synthesisCall(ctx, usable, review?.text ?? null));
  if (outcome.ok)
    return { callId: outcome.callId, result: outcome.result, charged: outcome.charged };
  throw haltRun(
    ctx,
    failed(
      RUN_ERROR_CODES.synthesisFailed,
      `The coordinator could not write the final answer: ${outcome.failure.message} The agents' drafts are kept above.`,
    ),
  );
}

/**
 * The coordinator's call that writes the final answer from `drafts` (in plan order) and the
 * Critic's review. A re-written answer (decision 031) is the same call over other drafts.
 */
export function synthesisCall(
  ctx: RunContext,
  drafts: readonly DraftText[],
  review: string | null,
): CallSpec<undefined> {
  return {
    kind: "synthesis",
    stepId: null,
    role: null,
    modelId: ctx.coordinatorModel,
    system: SYNTHESIS_SYSTEM,
    messages: messagesFor(
      ctx,
      ctx.coordinatorModel,
      synthesisContent(ctx.message.content, drafts, review),
      { system: SYNTHESIS_SYSTEM, maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS, history: true },
    ),
    maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS,
  };
}

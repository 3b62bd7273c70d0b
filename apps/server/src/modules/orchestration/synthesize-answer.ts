import { RUN_ERROR_CODES, type TRunPlanView } from "@cohort/contracts";
import { CallFailed, type CallOutcome, callModel } from "./call-model";
import {
  messagesFor,
  SYNTHESIS_MAX_OUTPUT_TOKENS,
  SYNTHESIS_SYSTEM,
  synthesisContent,
} from "./prompts";
import type { Review } from "./review-drafts";
import type { Draft } from "./run-agents";
import { type RunContext, RunStop } from "./run-context";

/** The synthesis: the coordinator streams the final answer from the drafts and the review. */
export async function synthesizeAnswer(
  ctx: RunContext,
  plan: TRunPlanView,
  drafts: Map<string, Draft>,
  review: Review | null,
): Promise<CallOutcome<undefined>> {
  const usable = plan.steps.flatMap((s) => {
    const d = drafts.get(s.id);
    return d?.ok ? [d] : [];
  });
  try {
    return await callModel(ctx, {
      kind: "synthesis",
      stepId: null,
      role: null,
      modelId: ctx.coordinatorModel,
      system: SYNTHESIS_SYSTEM,
      messages: messagesFor(
        ctx,
        ctx.coordinatorModel,
        synthesisContent(ctx.message.content, usable, review?.text ?? null),
        { system: SYNTHESIS_SYSTEM, maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS, history: true },
      ),
      maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS,
    });
  } catch (error) {
    if (!(error instanceof CallFailed) || error.stopped) throw error;
    throw new RunStop(
      RUN_ERROR_CODES.synthesisFailed,
      `The coordinator could not write the final answer: ${error.message} The agents' drafts are kept above.`,
    );
  }
}

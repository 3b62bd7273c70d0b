import { ERROR_CODES, INSUFFICIENT_CREDITS_MESSAGE } from "@cohort/contracts";
import { AppError, INTERNAL_ERROR_MESSAGE } from "../../platform/errors";
import { addMessage } from "../sessions/add-message";
import { CallFailed, round2 } from "./call-model";
import { planRun } from "./plan-run";
import { reviewDrafts } from "./review-drafts";
import { runAgents } from "./run-agents";
import { drain, persist, type RunContext, RunStop } from "./run-context";
import { finishRun, setRunStatus } from "./run-store";
import { synthesizeAnswer } from "./synthesize-answer";

class Halted extends Error {}

function throwIfHalted(ctx: RunContext): void {
  if (ctx.controller.signal.aborted) throw new Halted("halted");
}

/**
 * One run from start to end: plan → agents (in parallel where independent) → review with
 * at most one revision round → synthesis → the final answer stored as an assistant
 * message. Whatever happens, the run ends in exactly one of completed, failed or cancelled,
 * with its event, and no hold is left open.
 */
export async function executeRun(ctx: RunContext): Promise<void> {
  const { deps } = ctx;
  try {
    const started = ctx.events.append({
      type: "run.started",
      message: ctx.message,
      mode: ctx.mode,
      coordinator_model: ctx.coordinatorModel,
    });
    persist(ctx, async () => {
      const { seq } = await started;
      await setRunStatus(deps.db, ctx.runId, "planning", { firstSeq: seq });
    });
    throwIfHalted(ctx);

    const planned = await planRun(ctx);
    persist(ctx, () => setRunStatus(deps.db, ctx.runId, "running", { plan: planned.plan }));
    void ctx.events.append({
      type: "run.plan",
      plan: planned.plan,
      credits: planned.credits,
      repaired: planned.repaired,
    });
    throwIfHalted(ctx);

    const drafts = await runAgents(ctx, planned.plan);
    throwIfHalted(ctx);

    let review = null;
    if (planned.plan.steps.some((s) => s.phase === "review")) {
      persist(ctx, () => setRunStatus(deps.db, ctx.runId, "reviewing"));
      review = await reviewDrafts(ctx, planned.plan, drafts);
      throwIfHalted(ctx);
    }

    persist(ctx, () => setRunStatus(deps.db, ctx.runId, "synthesizing"));
    const final = await synthesizeAnswer(ctx, planned.plan, drafts, review);
    // A stop that arrives after the last token is too late: the answer is complete.
    await drain(ctx);
    const message = await addMessage(deps.db, {
      sessionId: ctx.sessionId,
      role: "assistant",
      content: final.result.text,
      runId: ctx.runId,
    });
    const ended = await finishRun(deps.db, ctx.runId, {
      status: "completed",
      totalCredits: round2(ctx.totals.credits),
      inputTokens: ctx.totals.inputTokens,
      outputTokens: ctx.totals.outputTokens,
      resultMessageId: message.id,
    });
    if (ended) {
      void ctx.events.append({
        type: "run.completed",
        message,
        critic_score: review?.score ?? null,
        total_credits: round2(ctx.totals.credits),
        input_tokens: ctx.totals.inputTokens,
        output_tokens: ctx.totals.outputTokens,
        duration_ms: Math.round(performance.now() - ctx.startedAt),
        synthesis: {
          call_id: final.callId,
          model: ctx.coordinatorModel,
          model_name: final.result.modelName,
          provider: final.result.provider,
          simulated: final.result.simulated,
          credits: final.charged,
        },
      });
    }
  } catch (error) {
    await endUnfinished(ctx, error);
  } finally {
    if (ctx.planHold?.hold) {
      await deps.credits.release(ctx.planHold.hold.id).catch((e: unknown) => {
        deps.log.error({ err: e, runId: ctx.runId }, "planning hold not released");
      });
    }
    await ctx.events.flush().catch(() => {});
    ctx.events.close();
  }
}

function failureOf(ctx: RunContext, error: unknown): { code: string; message: string } | null {
  if (ctx.stop) return { code: ctx.stop.code, message: ctx.stop.message };
  if (ctx.cancelReason) return null;
  if (error instanceof RunStop) return { code: error.code, message: error.message };
  if (error instanceof AppError && error.code === ERROR_CODES.insufficientCredits) {
    return { code: error.code, message: INSUFFICIENT_CREDITS_MESSAGE };
  }
  if (!(error instanceof Halted) && !(error instanceof CallFailed && error.stopped)) {
    ctx.deps.log.error({ err: error, runId: ctx.runId }, "run failed unexpectedly");
  }
  return { code: ERROR_CODES.internal, message: INTERNAL_ERROR_MESSAGE };
}

async function endUnfinished(ctx: RunContext, error: unknown): Promise<void> {
  const { deps } = ctx;
  const failure = failureOf(ctx, error);
  await drain(ctx);
  const totals = {
    totalCredits: round2(ctx.totals.credits),
    inputTokens: ctx.totals.inputTokens,
    outputTokens: ctx.totals.outputTokens,
  };
  try {
    const ended = await finishRun(
      deps.db,
      ctx.runId,
      failure
        ? { status: "failed", ...totals, error: failure }
        : { status: "cancelled", ...totals },
    );
    if (!ended) return;
    if (failure) {
      void ctx.events.append({
        type: "run.failed",
        ...failure,
        total_credits: totals.totalCredits,
      });
    } else {
      void ctx.events.append({
        type: "run.cancelled",
        reason: ctx.cancelReason ?? "user",
        total_credits: totals.totalCredits,
      });
    }
  } catch (e) {
    deps.log.error({ err: e, runId: ctx.runId }, "run end not saved");
  }
}

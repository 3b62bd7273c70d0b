import {
  canAdvanceRun,
  creditsOf,
  type Hundredths,
  type TChatMessage,
  type TRunHalt,
  type TRunPlanView,
  type TRunStatus,
} from "@cohort/contracts";
import type { ModelCallResult } from "../models/gateway";
import { type RunContext, throwIfHalted } from "./run-context";
import type { RunEventInput } from "./run-events";
import { finishRun, storeRunPhase } from "./run-store";

/** A move of a run, with what its stored row and its event need. */
export type RunMove =
  | { to: "planning" }
  | { to: "running"; plan: TRunPlanView; planCredits: Hundredths; repaired: boolean }
  | { to: "reviewing" }
  | { to: "synthesizing" }
  | {
      to: "completed";
      message: TChatMessage;
      synthesis: { callId: string; result: ModelCallResult; charged: Hundredths };
    }
  | { to: "halted"; end: TRunHalt };

/** A move the table does not allow is a bug in the engine, never a user's doing. */
export class IllegalRunMove extends Error {
  constructor(from: TRunStatus, to: TRunStatus) {
    super(`a run cannot move from ${from} to ${to}`);
    this.name = "IllegalRunMove";
  }
}

/** The event a run's end sends, also for runs ended by a sweep (no context there). */
export function runEndEvent(end: TRunHalt, totalCredits: Hundredths): RunEventInput {
  return end.status === "failed"
    ? {
        type: "run.failed",
        code: end.code,
        message: end.message,
        total_credits: creditsOf(totalCredits),
      }
    : { type: "run.cancelled", reason: end.reason, total_credits: creditsOf(totalCredits) };
}

/**
 * The one way a run's status changes: checked against RUN_STATUS_TRANSITIONS, stored (and
 * awaited), then its event sent. A halted run moves only to its end. Returns false when the
 * row had ended already (another instance swept it): then no event is sent.
 */
export async function advance(ctx: RunContext, move: RunMove): Promise<boolean> {
  const to: TRunStatus = move.to === "halted" ? move.end.status : move.to;
  if (!canAdvanceRun(ctx.status, to)) throw new IllegalRunMove(ctx.status, to);
  // The start is always announced (a stopped run still shows its message); a stop that comes
  // after the last token is too late, the answer is complete.
  if (move.to !== "planning" && move.to !== "halted" && move.to !== "completed") {
    throwIfHalted(ctx);
  }
  const { db } = ctx.deps;
  const totals = () => ({
    totalCredits: ctx.totals.credits,
    inputTokens: ctx.totals.inputTokens,
    outputTokens: ctx.totals.outputTokens,
    criticScore: ctx.criticScore,
  });
  let stored: boolean;
  let event: RunEventInput | null = null;
  switch (move.to) {
    case "planning": {
      // The run's first event is its replay cursor: its seq is stored with the status.
      const started = await ctx.events.append({
        type: "run.started",
        message: ctx.message,
        mode: ctx.mode,
        coordinator_model: ctx.coordinatorModel,
      });
      stored = await storeRunPhase(db, ctx.runId, to, { firstSeq: started.seq });
      break;
    }
    case "running":
      stored = await storeRunPhase(db, ctx.runId, to, { plan: move.plan });
      event = {
        type: "run.plan",
        plan: move.plan,
        credits: creditsOf(move.planCredits),
        repaired: move.repaired,
      };
      break;
    case "reviewing":
    case "synthesizing":
      stored = await storeRunPhase(db, ctx.runId, to);
      break;
    case "completed": {
      stored = await finishRun(db, ctx.runId, {
        outcome: { status: "completed" },
        ...totals(),
        resultMessageId: move.message.id,
      });
      const { callId, result, charged } = move.synthesis;
      event = {
        type: "run.completed",
        message: move.message,
        critic_score: ctx.criticScore,
        total_credits: creditsOf(ctx.totals.credits),
        input_tokens: ctx.totals.inputTokens,
        output_tokens: ctx.totals.outputTokens,
        duration_ms: Math.round(performance.now() - ctx.startedAt),
        synthesis: {
          call_id: callId,
          model: ctx.coordinatorModel,
          model_name: result.modelName,
          provider: result.provider,
          simulated: result.simulated,
          credits: creditsOf(charged),
        },
      };
      break;
    }
    case "halted":
      stored = await finishRun(db, ctx.runId, { outcome: move.end, ...totals() });
      event = runEndEvent(move.end, ctx.totals.credits);
      break;
  }
  ctx.status = to;
  if (stored && event) void ctx.events.append(event);
  return stored;
}

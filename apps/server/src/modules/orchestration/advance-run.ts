import {
  canAdvanceRun,
  creditsOf,
  type Hundredths,
  type TChatMessage,
  type TRunHalt,
  type TRunPassage,
  type TRunPlanView,
  type TRunStatus,
} from "@cohort/contracts";
import type { ModelCallResult } from "../models/gateway";
import { type NewMessage, storedMessage } from "../sessions/add-message";
import { storeAnswerAndFinish } from "./call-statements";
import type { LateBooking } from "./hold-credits";
import { type RunContext, throwIfHalted, track } from "./run-context";
import type { RunEventInput } from "./run-events";
import { finishRun, type RunEnding, storeRunPhase } from "./run-store";

/** A move of a run, with what its stored row and its event need. */
export type RunMove =
  | { to: "planning" }
  | { to: "running"; plan: TRunPlanView; planCredits: Hundredths; repaired: boolean }
  /** The plan waits for a person (decision 069): stored and shown, not run yet. */
  | { to: "planned"; plan: TRunPlanView; planCredits: Hundredths; repaired: boolean }
  /** A reviewed plan starts, as the person left it (decision 069). */
  | { to: "running"; started: { plan: TRunPlanView; edited: boolean; byName: string | null } }
  | { to: "reviewing" }
  | { to: "synthesizing" }
  | {
      to: "completed";
      /** The answer, stored with the run's end (decision 086). */
      answer: { id: string; content: string };
      synthesis: {
        callId: string;
        result: ModelCallResult;
        charged: Hundredths;
        citations: TRunPassage[];
        /** Its charge, booked here in the end's statement (decision 091). */
        late?: LateBooking | null;
      };
    }
  | { to: "halted"; end: TRunHalt };

/** The event a stored plan sends, whether it runs at once or waits for review. */
function planEvent(move: {
  plan: TRunPlanView;
  planCredits: Hundredths;
  repaired: boolean;
}): RunEventInput {
  return {
    type: "run.plan",
    plan: move.plan,
    credits: creditsOf(move.planCredits),
    repaired: move.repaired,
  };
}

/**
 * The answer and the run's end in one statement (decision 086) and, with `late`, the
 * synthesis's charge in it too (decision 091): the run's total is computed there. When the
 * end could not be written with the charge (the hold was not open, or that statement failed
 * and the charge was booked on its own), the end is stored by itself, with the totals as
 * booked. `charged` is what the synthesis's hold settled when `late` booked it.
 */
async function storeAnswerWithCharge(
  ctx: RunContext,
  answer: NewMessage & { id: string },
  late: LateBooking | null,
  totals: () => Omit<RunEnding, "outcome">,
): Promise<{ message: TChatMessage; finished: boolean; charged: Hundredths | null }> {
  const outcome = { status: "completed" } as const;
  if (!late) {
    return {
      ...(await storeAnswerAndFinish(ctx.deps.db, answer, { outcome, ...totals() })),
      charged: null,
    };
  }
  const ended = await late.book({ answer, ending: { outcome, ...totals() } });
  const booked = await late.booked;
  if (ended) {
    return {
      message: storedMessage(answer, ended.message_created_at),
      finished: ended.finished,
      charged: booked.charged,
    };
  }
  const alone = await storeAnswerAndFinish(ctx.deps.db, answer, { outcome, ...totals() });
  return { ...alone, charged: booked.charged };
}

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
        ...(end.money ?? {}),
      }
    : { type: "run.cancelled", reason: end.reason, total_credits: creditsOf(totalCredits) };
}

/**
 * A run's phase writes, one after another: each is sent without waiting for the one before,
 * and a later phase must never land before an earlier one.
 */
const phaseWrites = new WeakMap<RunContext, Promise<unknown>>();

/**
 * Stores a move to the next phase beside the run, after the run's earlier phase writes. The
 * next call does not wait for it (one round trip less per phase); the run's end awaits it
 * (`drain`). The row's status is where the run got to; the events carry the order a client
 * reads, and a run another instance ended stays ended (the write matches active rows only).
 */
function writePhase(ctx: RunContext, write: () => Promise<unknown>): void {
  const previous = phaseWrites.get(ctx) ?? Promise.resolve();
  const next = previous.then(write, write);
  phaseWrites.set(ctx, next);
  track(ctx, async () => {
    await next;
  });
}

/**
 * The run's events so far, written now instead of with the next gathered write: its end is
 * announced only once they are stored, so a client that reads the run on its end event finds
 * what they carry (a verdict's evidence, the draft scores; decision 086). A failed write was
 * logged; the end goes on.
 */
function storedEvents(ctx: RunContext): Promise<void> {
  return ctx.events.flush().catch(() => {});
}

/**
 * The one way a run's status changes: checked against RUN_STATUS_TRANSITIONS, its event sent
 * and its row written. A move to a phase is written beside the run (`writePhase`); the run's
 * end waits for those, is stored, and only then sent. A halted run moves only to its end.
 * Returns false when the row had ended already (another instance swept it): then no end
 * event is sent.
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
  let stored = true;
  let event: RunEventInput | null = null;
  switch (move.to) {
    case "planning": {
      // The run's first event is its replay cursor: its seq is stored with the status.
      const started = ctx.events.append({
        type: "run.started",
        message: ctx.message,
        mode: ctx.mode,
        coordinator_model: ctx.coordinatorModel,
      });
      writePhase(ctx, async () =>
        storeRunPhase(db, ctx.runId, to, { firstSeq: (await started).seq }),
      );
      break;
    }
    case "running":
      if ("started" in move) {
        const { plan, edited, byName } = move.started;
        writePhase(ctx, () => storeRunPhase(db, ctx.runId, to, { plan }));
        event = { type: "plan.started", plan, edited, by_name: byName };
        break;
      }
      writePhase(ctx, () => storeRunPhase(db, ctx.runId, to, { plan: move.plan }));
      event = planEvent(move);
      break;
    case "planned":
      // The run now waits for a person: its status is stored before the review is announced,
      // so a client that reads the plan on `run.planned` sees `planned` (nothing to gain by
      // deferring this write).
      writePhase(ctx, () => storeRunPhase(db, ctx.runId, to, { plan: move.plan }));
      await phaseWrites.get(ctx);
      event = planEvent(move);
      break;
    case "reviewing":
    case "synthesizing":
      writePhase(ctx, () => storeRunPhase(db, ctx.runId, to));
      break;
    case "completed": {
      await phaseWrites.get(ctx)?.catch(() => {});
      const answer: NewMessage & { id: string } = {
        id: move.answer.id,
        sessionId: ctx.sessionId,
        role: "assistant",
        content: move.answer.content,
        runId: ctx.runId,
      };
      const [answered] = await Promise.all([
        storeAnswerWithCharge(ctx, answer, move.synthesis.late ?? null, totals),
        storedEvents(ctx),
      ]);
      stored = answered.finished;
      const { callId, result } = move.synthesis;
      // What the synthesis's hold settled: its price, unless the hold expired mid-call.
      const charged = answered.charged ?? move.synthesis.charged;
      event = {
        type: "run.completed",
        message: answered.message,
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
        ...(ctx.material.passages.size > 0 ? { citations: move.synthesis.citations } : {}),
      };
      break;
    }
    case "halted":
      await phaseWrites.get(ctx)?.catch(() => {});
      [stored] = await Promise.all([
        finishRun(db, ctx.runId, { outcome: move.end, ...totals() }),
        storedEvents(ctx),
      ]);
      event = runEndEvent(move.end, ctx.totals.credits);
      break;
  }
  ctx.status = to;
  if (stored && event) void ctx.events.append(event);
  return stored;
}

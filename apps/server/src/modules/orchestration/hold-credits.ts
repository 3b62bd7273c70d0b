import { setImmediate as nextTurn } from "node:timers/promises";
import {
  addHundredths,
  ERROR_CODES,
  type Hundredths,
  hundredths,
  leftOf,
  minHundredths,
  NO_CREDITS,
  SPENDING_ERROR_CODES,
  type TCreditLimitKind,
  WORKSPACE_CREDIT_ERROR_CODES,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { ComposedStatement } from "../credits/composed-statement";
import type { ModelCallResult } from "../models/gateway";
import { recordSessionSpend } from "../sessions/record-session-spend";
import {
  type RunEnd,
  type SettledCall,
  type SettledEnd,
  settleAndEndStep,
  settleAndFinishRun,
} from "./call-statements";
import type { CallUsage, Charge, CreditHold } from "./credits-port";
import { drain, type RunContext, track } from "./run-context";
import type { StepEnding } from "./run-store";

/**
 * What a call holds in the session's budget and (when it costs) on the balance: its input
 * and a first slice of output, grown as its answer grows (decision 053).
 */
export interface Reserved<R extends object = object> {
  callId: string;
  /** null when the call costs nothing (the user's own key, a free model, the simulator). */
  hold: CreditHold | null;
  /** Held in the session's budget: the hold's amount (or what a free call took: 0). */
  held: Hundredths;
  /**
   * What the hold's statement selected when it wrote the caller's rows too (`reserveCall`
   * with `composed`: a call's step row, a run's message and row); null when the call needed
   * no hold, and the caller writes them on its own.
   */
  written: R | null;
}

/** What settling a call's hold booked, once it is written. */
export interface Booked {
  /** Taken from the balance: the price, capped by the hold (by the balance if it expired). */
  charged: Hundredths;
  /** The session's spend, and the user's balance, after it (null when nothing was taken). */
  sessionSpent: Hundredths | null;
  balance: { balance: Hundredths; available: Hundredths } | null;
  /** The settlement's statement ended the step row too (else its writer ends it). */
  stepEnded: boolean;
}

/** A call's step row, to be ended in its settlement's statement (the step writer's part). */
export interface StepToEnd {
  /** Resolves once the row is written (true) or could not be (false). */
  opened: Promise<boolean>;
  /** The row's end for the call's answer. */
  ending(result: ModelCallResult, charged: Hundredths): StepEnding;
}

export interface HeldResult {
  result: ModelCallResult;
  /** What the call costs the user, known as soon as it returns. */
  charged: Hundredths;
  /** Resolves when the charge is booked (beside the run: the run ends after it). */
  booked: Promise<Booked>;
  /** Set when the run's end books the call (`LateBooking`); else it is booked beside the run. */
  late: LateBooking | null;
}

/**
 * A call whose charge the run's end statement books (the synthesis, decision 091): its
 * settlement is not tracked beside the run, so `drain` does not wait for it; the run's end
 * composes it into its own statement. Whatever ends the run must book it exactly once.
 */
export interface LateBooking {
  /**
   * Books the call's charge. With `end`, in the run's end statement (`settleAndFinishRun`)
   * while its hold is open: then it returns that statement's row. Null when the end was not
   * written here (no `end`, the hold was not open, or the statement failed and the charge was
   * booked on its own): the caller stores the end itself. Once only: later calls return the
   * first one's outcome.
   */
  book(end?: RunEnd): Promise<SettledEnd | null>;
  /** Resolves once `book` booked the charge. */
  readonly booked: Promise<Booked>;
  /** Work to run once the charge is booked, before `book` resolves (the step's event). */
  afterBooked(work: (booked: Booked) => Promise<void>): void;
}

/**
 * Holds up to `wanted` for a call, and at least `minimum` (its input and a minimal answer):
 * the session's budget first (the one budget check), then the payer's wallet, the member's
 * cap and the user's personal limit, each giving no more than it has left. Throws 402
 * (`budget_exceeded`, `insufficient_credits`, `member_cap_reached`, `personal_limit_reached`)
 * when the minimum does not fit; the planning call answers them to the HTTP request, later
 * calls end the run with them. With `composed`, the hold's statement writes the caller's
 * rows too (both or neither, `call-statements.ts`); a call without a hold writes them on its
 * own (`written` says which).
 */
export function reserveCall<R extends object = object>(
  ctx: RunContext,
  callId: string,
  wanted: Hundredths,
  composed?: ComposedStatement,
  minimum: Hundredths = wanted,
): Promise<Reserved<R>> {
  if (wanted <= 0) return Promise.resolve({ callId, hold: null, held: NO_CREDITS, written: null });
  // The budget is checked now, synchronously: a call over it throws before anything starts.
  const least = minHundredths(minimum, wanted);
  const taken = ctx.budget.takeUpTo(wanted, least);
  return holdBalance<R>(ctx, callId, taken, least, composed);
}

async function holdBalance<R extends object>(
  ctx: RunContext,
  callId: string,
  taken: Hundredths,
  minimum: Hundredths,
  composed: ComposedStatement | undefined,
): Promise<Reserved<R>> {
  const reference = `run:${ctx.runId}:${callId}`;
  // A run's call makes its provider request just before its hold (callModel): node:http hands
  // the request its socket on the next tick, after every promise job of this turn. The hold's
  // statement waits for the next turn of the event loop, so the request reaches the wire
  // first (decision 026). The planning hold of POST /api/ai/chat has no request beside it and
  // only waits the one turn.
  await nextTurn();
  const reserve = () => ctx.deps.credits.reserve<R>(ctx.payer, taken, reference, composed, minimum);
  try {
    const { hold, composed: written } = await reserve().catch(async (error: unknown) => {
      if (!isInsufficient(error)) throw error;
      // Earlier calls' holds may still be open while their charges are booked: once they
      // are, their unused parts are available again.
      await drain(ctx);
      return reserve();
    });
    // The wallet may have given less than the budget did: the budget keeps only that.
    ctx.budget.release(leftOf(taken, hold.amount));
    return { callId, hold: { ...hold }, held: hold.amount, written };
  } catch (error) {
    ctx.budget.release(taken);
    throw error;
  }
}

/** An extension that could not be had: the limit that refused it. */
export type Grown = { ok: true } | { ok: false; limit: TCreditLimitKind };

/**
 * Grows a call's hold by up to `wanted` (decision 053): the session's budget first, then the
 * wallet and caps, each within what it has left. The hold's statement locks only this hold's
 * row and the rows its reserve locked, so parallel calls never wait on one another's holds.
 */
export async function growHold(
  ctx: RunContext,
  reserved: Reserved,
  wanted: Hundredths,
): Promise<Grown> {
  const hold = reserved.hold;
  if (!hold) return { ok: true };
  const taken = ctx.budget.extend(wanted);
  if (taken <= 0) return { ok: false, limit: "session_budget" };
  try {
    const grown = await ctx.deps.credits.extend(ctx.payer, hold.id, taken);
    if (!grown.ok) {
      ctx.budget.release(taken);
      return grown;
    }
    ctx.budget.release(leftOf(taken, grown.granted));
    hold.amount = grown.amount;
    reserved.held = addHundredths(reserved.held, grown.granted);
    return { ok: true };
  } catch (error) {
    ctx.budget.release(taken);
    ctx.deps.log.error({ err: error, runId: ctx.runId, holdId: hold.id }, "hold not extended");
    return { ok: false, limit: ctx.payer.memberId === null ? "balance" : "workspace_pool" };
  }
}

/** The balance, or a team member's monthly cap, cannot cover the hold (both 402). */
export function isInsufficient(error: unknown): error is AppError {
  return (
    error instanceof AppError &&
    (error.code === ERROR_CODES.insufficientCredits ||
      error.code === WORKSPACE_CREDIT_ERROR_CODES.memberCapReached ||
      error.code === SPENDING_ERROR_CODES.personalLimitReached)
  );
}

/**
 * Runs a call on its reservation and closes the hold whatever happens: a call that returns
 * is charged its price (never more than the hold) and the rest released; a call that throws
 * (failure, stop, bug) releases it all. Booking runs beside the run, so the next call does
 * not wait for this one's statement; with `step`, that statement also ends the step row and
 * adds the charge to the session's spend.
 */
export async function withHold(
  ctx: RunContext,
  reserved: Reserved,
  call: () => Promise<ModelCallResult>,
  step?: StepToEnd,
  /** The run's end books this result (`LateBooking`) when it says so: the synthesis's. */
  bookLate?: (result: ModelCallResult) => boolean,
): Promise<HeldResult> {
  const { hold } = reserved;
  let result: ModelCallResult;
  try {
    result = await call();
  } catch (error) {
    ctx.budget.release(reserved.held);
    if (hold) track(ctx, () => releaseQuietly(ctx, hold));
    throw error;
  }
  const charged = hold ? minHundredths(result.credits, hold.amount) : NO_CREDITS;
  ctx.budget.settle(reserved.held, charged);
  ctx.totals.credits = addHundredths(ctx.totals.credits, charged);
  ctx.totals.inputTokens += result.usage.inputTokens;
  ctx.totals.outputTokens += result.usage.outputTokens;
  if (hold && step && bookLate?.(result)) {
    const late = lateBooking(ctx, reserved, result, charged, step);
    return { result, charged, booked: late.booked, late };
  }
  // Booked from the next turn of the event loop: the run's next call, started as this one
  // returns, gets its provider request on the wire before this statement (decision 026).
  const booked = nextTurn().then(
    async () => (await book(ctx, reserved, result, charged, step)).booked,
  );
  track(ctx, () => booked.then(() => undefined));
  return { result, charged, booked, late: null };
}

function lateBooking(
  ctx: RunContext,
  reserved: Reserved,
  result: ModelCallResult,
  charged: Hundredths,
  step: StepToEnd,
): LateBooking {
  let resolveBooked: (booked: Booked) => void = () => {};
  const booked = new Promise<Booked>((resolve) => {
    resolveBooked = resolve;
  });
  const after: ((booked: Booked) => Promise<void>)[] = [];
  let outcome: Promise<SettledEnd | null> | null = null;
  const run = async (end: RunEnd | undefined): Promise<SettledEnd | null> => {
    const done = await book(ctx, reserved, result, charged, step, end);
    resolveBooked(done.booked);
    for (const work of after) {
      await work(done.booked).catch((error: unknown) => {
        ctx.deps.log.error({ err: error, runId: ctx.runId }, "run bookkeeping failed");
      });
    }
    return done.ended;
  };
  return {
    booked,
    book(end) {
      outcome ??= run(end);
      return outcome;
    },
    afterBooked(work) {
      after.push(work);
    },
  };
}

/** Gives back a reservation whose call never ran (the run stopped before it). */
export async function releaseReserved(ctx: RunContext, reserved: Reserved): Promise<void> {
  ctx.budget.release(reserved.held);
  if (reserved.hold) await releaseQuietly(ctx, reserved.hold);
}

/** What a finished call's charge and usage row are booked with. */
export function callUsageOf(result: ModelCallResult): CallUsage {
  return {
    model: result.modelId,
    provider: result.provider,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    credits: result.credits,
  };
}

/**
 * Settles a call's hold with its usage row and, with `step`, its step's end and the session's
 * spend; with `end` too, the run's answer and end (`settleAndFinishRun`, decision 091).
 */
async function book(
  ctx: RunContext,
  { callId, hold }: Reserved,
  result: ModelCallResult,
  charged: Hundredths,
  step: StepToEnd | undefined,
  end?: RunEnd,
): Promise<{ booked: Booked; ended: SettledEnd | null }> {
  const { deps } = ctx;
  const usage = callUsageOf(result);
  let booked = NO_CREDITS;
  let balance: Booked["balance"] = null;
  let settled: SettledCall | null = null;
  let ended: SettledEnd | null = null;
  try {
    if (hold) {
      // The step row must be there before the statement that ends it (a planning call's row
      // is written beside its call).
      const opened = step ? await step.opened : false;
      const ending = opened && step ? step.ending(result, charged) : null;
      const alone = ending ? settleAndEndStep(ctx.sessionId, callId, ending) : undefined;
      let charge: Charge<SettledCall>;
      if (ending && end) {
        // The run's total in the statement is the other calls' plus what this hold settles.
        const others = hundredths(end.ending.totalCredits - charged);
        const folded = settleAndFinishRun(callId, ending, {
          ...end,
          ending: { ...end.ending, totalCredits: others },
        });
        try {
          const withEnd = await deps.credits.settle<SettledEnd>(hold, usage, folded);
          ended = withEnd.composed;
          charge = withEnd;
        } catch (error) {
          // The end statement failed whole: nothing of it was written, the hold is still open
          // (or, had it committed unseen, closed: then this charges nothing). The charge is
          // booked on its own, once, and the caller stores the end by itself.
          deps.log.error(
            { err: error, runId: ctx.runId, callId },
            "run end not settled with its charge",
          );
          charge = await deps.credits.settle<SettledCall>(hold, usage, alone);
        }
      } else {
        charge = await deps.credits.settle<SettledCall>(hold, usage, alone);
      }
      booked = charge.charged;
      balance = { balance: charge.balance, available: charge.available };
      settled = charge.composed;
    } else {
      await deps.credits.recordFree(ctx.payer, `run:${ctx.runId}:${callId}`, usage);
    }
  } catch (error) {
    // The hold stays open and the sweeper gives it back: the user is not charged twice.
    deps.log.error({ err: error, runId: ctx.runId, callId }, "call could not be charged");
  }
  if (booked !== charged) {
    // Only when a hold expired mid-call (then the charge is capped by the balance).
    ctx.totals.credits = hundredths(ctx.totals.credits + booked - charged);
  }
  if (settled) {
    const sessionSpent = settled.session_spent === null ? null : hundredths(settled.session_spent);
    return { booked: { charged: booked, sessionSpent, balance, stepEnded: true }, ended };
  }
  // The hold was not open (expired mid-call) or could not be settled: the rows one by one.
  const sessionSpent = booked > 0 ? await recordSessionSpend(deps.db, ctx.sessionId, booked) : null;
  return { booked: { charged: booked, sessionSpent, balance, stepEnded: false }, ended: null };
}

async function releaseQuietly(ctx: RunContext, hold: CreditHold): Promise<void> {
  try {
    await ctx.deps.credits.release(hold.id);
  } catch (error) {
    ctx.deps.log.error({ err: error, runId: ctx.runId, holdId: hold.id }, "hold not released");
  }
}

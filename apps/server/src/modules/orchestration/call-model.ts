import { randomUUID } from "node:crypto";
import {
  CREDIT_LIMIT_STOP_MESSAGES,
  ERROR_CODES,
  estimateTokens,
  type Hundredths,
  NO_CREDITS,
  RUN_ERROR_CODES,
  type TAgentRole,
  type TCreditLimitKind,
  type TRunError,
  type TRunHalt,
  type TRunMoneyFailure,
  type TRunPassage,
  type TRunStepKind,
  ZCreditRefusal,
} from "@cohort/contracts";
import type { z } from "zod";
import { AppError } from "../../platform/errors";
import type { CatalogueModel } from "../models/catalogue-schema";
import type { GatewayMessage, MadeImage, ModelCallInput, ModelCallResult } from "../models/gateway";
import type { ToolDefinition } from "../tools/tool-definition";
import { reserveAndOpenStep } from "./call-statements";
import type { CreditHold } from "./credits-port";
import {
  growHold,
  type HeldResult,
  isInsufficient,
  type LateBooking,
  type Reserved,
  releaseReserved,
  reserveCall,
  withHold,
} from "./hold-credits";
import { coveredOutputTokens, firstHold, priceOf } from "./hold-slices";
import { MeteredText } from "./metered-text";
import {
  failed,
  haltOf,
  haltRun,
  type RunContext,
  RunHalted,
  type RunImages,
  throwIfHalted,
} from "./run-context";
import { runToolTurns, type TurnHooks } from "./tool-loop";
import { openStep, refuseStep, STOPPED, type StepTarget, stepRowOf } from "./write-step";

/** One model call of a run, as a phase asks for it. */
export interface CallSpec<T> {
  kind: TRunStepKind;
  /** The plan step it works on (agents, the Critic, revisions). */
  stepId: string | null;
  role: TAgentRole | null;
  modelId: string;
  messages: GatewayMessage[];
  system?: string;
  maxOutputTokens?: number;
  /** Shown in agent.started for lanes. */
  task?: string;
  /** Structured output (the plan): no deltas, the object is validated by the gateway. */
  schema?: z.ZodType<T>;
  /**
   * With a schema: the answer's text so far as it grows, once the call's hold is there (the
   * plan's preview, decision 079). Shown, not charged apart: the hold covers the whole answer.
   */
  onPartial?: (textSoFar: string) => void;
  /** Added to the error message in agent.done when the call fails (what the run does next). */
  failureNote?: string;
  /** A hold reserved before the call (the planning call's, a re-run's); else one is reserved. */
  reserved?: Reserved | null;
  /** The model's default when absent (a re-run may ask for another). */
  temperature?: number;
  /** A re-run of a plan step (decision 031): its row's version and link. */
  rerun?: StepTarget["rerun"];
  /** The document passages in its prompt (decision 037): sent, stored, and cited as [n]. */
  passages?: StepTarget["passages"];
  /** On an image model (decision 064): what to draw. */
  imagePrompt?: string;
  /**
   * The tools the lane may use (decision 058): the call becomes a loop of model turns and
   * tool calls (tool-loop.ts), in one lane and one step row, on one hold that grows.
   */
  tools?: readonly ToolDefinition[];
  /**
   * A lane a person may stop (Steer, Skip; decision 069): aborting it cuts this call only,
   * like a stop — its shown text is kept and charged — and the call returns instead of
   * throwing, for the lane to go on.
   */
  signal?: AbortSignal;
  /** Told the call's id as it starts (the lane's events name it). */
  onCallId?: (callId: string) => void;
  /**
   * The run's end statement books this call's charge (the synthesis, decision 091): an
   * answered call returns its `LateBooking`, and the run's end must book it.
   */
  bookAtEnd?: boolean;
}

/** Keeps the picture an image model made in this call with the run's session (decision 064). */
function imageKeeper(ctx: RunContext, images: RunImages, callId: string) {
  return (image: MadeImage) =>
    images.store({ sessionId: ctx.sessionId, runId: ctx.runId, callId, userId: ctx.userId }, image);
}

/**
 * A call's result. A failure is a value: the phase decides whether the run goes on without
 * it. A call never returns once the run is halting: it throws the run's `RunHalted`.
 */
export type CallOutcome<T> =
  | {
      ok: true;
      callId: string;
      result: ModelCallResult;
      object: T | undefined;
      /** What the call took from the balance (0 on the user's own key). */
      charged: Hundredths;
      /** With `bookAtEnd` and a hold: the charge the run's end must book; else null. */
      late: LateBooking | null;
    }
  | { ok: false; callId: string; failure: TRunError; partial: string };

/** Why the call's text stopped before its end: its hold could not grow (decision 053). */
class StoppedAtLimit extends Error {
  constructor(readonly limit: TCreditLimitKind) {
    super(CREDIT_LIMIT_STOP_MESSAGES[limit]);
  }
}

/**
 * A halted run's cut call is charged for the text it showed, as a call stopped at a limit is
 * (decision 053), except at a shutdown: the run goes on elsewhere and makes that call again
 * (decision 047), and its holds are released.
 */
function chargesCutCall(halt: TRunHalt): boolean {
  return !(halt.status === "cancelled" && halt.reason === "shutdown");
}

function failureOf(error: unknown, note: string | undefined, fallback: string): TRunError {
  return {
    code: error instanceof AppError ? error.code : ERROR_CODES.internal,
    message: [error instanceof AppError ? error.message : fallback, note].filter(Boolean).join(" "),
  };
}

/**
 * Every model call of a run: where it runs, its hold (the session budget and the balance,
 * for its worst case), its step record, the call itself, streamed into delta events; then
 * the hold is settled on the actual price (a call cut by a stop: on the text it showed), or
 * released when the call fails or a shutdown cuts it.
 */
export async function callModel<T = undefined>(
  ctx: RunContext,
  spec: CallSpec<T>,
): Promise<CallOutcome<T>> {
  const callId = spec.reserved?.callId ?? randomUUID();
  spec.onCallId?.(callId);
  let route: Route;
  try {
    throwIfHalted(ctx);
    route = routeCall(ctx, spec, callId);
  } catch (error) {
    if (spec.reserved) await releaseReserved(ctx, spec.reserved);
    if (error instanceof RunHalted) throw error;
    const failure = failureOf(error, spec.failureNote, "");
    refuseStep(ctx, targetOf(spec, callId), failure);
    return { ok: false, callId, failure, partial: "" };
  }
  // The lane's sources: its passages and those its tools find, numbered by the run (decision
  // 067); the step's record reads them at its end, so its `[n]` citations count.
  const sources: TRunPassage[] = [...(spec.passages ?? [])];
  route.target.passages = sources;

  // The provider request goes out beside the hold's statement, not after it: the hold is
  // there long before a first token (one statement against a model's time to first token),
  // and nothing the model says is shown, stored or billed until it is. When the hold is
  // refused, the request is aborted and the run ends as it did before (decision 019).
  const first = firstHold(route.model, route.inputTokens, route.maxOutputTokens);
  const reserving = spec.reserved
    ? Promise.resolve(spec.reserved)
    : reserveOrHalt(ctx, route.target, route.billable ? first : null);
  if (spec.reserved?.hold) {
    // A hold made before the call (the plan's): the provider may say no more than it pays.
    const covered = coveredOutputTokens(
      route.model,
      route.inputTokens,
      spec.reserved.hold.amount,
      route.maxOutputTokens,
    );
    route.input.maxOutputTokens = Math.max(1, covered);
  }
  const refused = new AbortController();
  // The text is shown only as far as the hold pays for it (decision 053, `MeteredText`); an
  // extension that cannot be had stops the call there, its text kept and charged for what
  // was produced.
  let reserved: Reserved | null = null;
  const meter = new MeteredText<CreditHold>(route);
  let laneOpened: () => void = () => {};
  const hooks: TurnHooks = {
    laneOpen: new Promise<void>((resolve) => {
      laneOpened = resolve;
    }),
    // A next turn re-sends the conversation: the hold grows by its prompt's price first.
    async growForInput(tokens) {
      const current = await reserving;
      if (!current.hold || !route.billable) return null;
      const grown = await growHold(ctx, current, priceOf(route.model, tokens, 0));
      if (!grown.ok) return grown.limit;
      route.inputTokens += tokens;
      return null;
    },
  };
  // A structured answer's text so far: passed on once the hold is there, as deltas are.
  let partial: string | null = null;
  const onPartial = spec.onPartial;
  const input: ModelCallInput & { onPartial?: (text: string) => void } = onPartial
    ? {
        ...route.input,
        onPartial: (text: string) => {
          partial = text;
          if (reserved) onPartial(text);
        },
      }
    : route.input;
  const answering = invoke(
    ctx,
    spec,
    input,
    AbortSignal.any([ctx.controller.signal, refused.signal, ...(spec.signal ? [spec.signal] : [])]),
    (delta) => meter.push(delta),
    callId,
    hooks,
    sources,
  );
  // Awaited below once the hold is there; until then a failure is not "unhandled".
  answering.catch(() => undefined);
  if (spec.reserved) {
    // node:http writes the request on the next tick, once every microtask queued has run: with
    // the hold there already (the plan's), the step's row and events would go first. They wait
    // for that tick instead, and the request leaves before them (decision 090).
    await new Promise<void>((resolve) => process.nextTick(resolve));
  }
  try {
    reserved = await reserving;
  } catch (error) {
    refused.abort(error);
    await answering.catch(() => undefined);
    throw error;
  }
  const current = reserved;
  const step = openStep(ctx, route.target);
  step.start(current);
  laneOpened();
  meter.open(current.hold, {
    show: (piece) => step.delta(piece),
    stop: (limit) => refused.abort(new StoppedAtLimit(limit)),
    grow: (_hold, wanted) => growHold(ctx, current, wanted),
  });
  if (onPartial && partial !== null) onPartial(partial);
  let object: T | undefined;
  const output = (result: ModelCallResult) =>
    spec.schema && !result.halted ? JSON.stringify(object) : result.text;
  let held: HeldResult;
  try {
    held = await withHold(
      ctx,
      current,
      async () => {
        let answer: Awaited<typeof answering>;
        try {
          answer = await answering;
        } catch (error) {
          if (meter.stoppedAt) return stoppedResult(route, meter.text, meter.stoppedAt);
          const halt = haltOf(ctx);
          if (!halt && spec.signal?.aborted) {
            // A person stopped this lane (decision 069): kept and charged like a stop.
            while (meter.growing) await meter.growing;
            if (meter.text.length === 0) throw error;
            return stoppedResult(route, meter.text, null);
          }
          if (!halt || !chargesCutCall(halt)) throw error;
          // The run was halted mid-answer (a user's Stop, a client that left): the text
          // shown so far is kept and charged, whatever ended the stream (decision 053). A
          // call that showed nothing is given back, as on /api/v1.
          while (meter.growing) await meter.growing;
          if (meter.text.length === 0) throw error;
          return stoppedResult(route, meter.text, null);
        }
        // The answer is complete: what still waits for the hold gets its last chance.
        while (meter.growing) await meter.growing;
        meter.flush();
        if (meter.stoppedAt || meter.pending.length > 0) {
          const limit = meter.stoppedAt ?? meter.exhausted ?? "balance";
          return stoppedResult(route, meter.text, limit, answer.result);
        }
        object = answer.object;
        return answer.result;
      },
      step.settling(output),
      spec.bookAtEnd ? (result) => !result.halted : undefined,
    );
  } catch (error) {
    const halt = haltOf(ctx);
    if (!halt && !(error instanceof AppError)) {
      ctx.deps.log.error({ err: error, runId: ctx.runId }, "model call failed");
    }
    const interrupted = !halt && spec.signal?.aborted === true;
    const failure =
      halt || interrupted
        ? STOPPED
        : failureOf(error, spec.failureNote, "The call failed unexpectedly.");
    step.failed(failure, meter.text, halt !== null || interrupted);
    if (halt) throw new RunHalted(halt);
    return { ok: false, callId, failure, partial: meter.text };
  }
  step.completed(held, output(held.result));
  const halt = held.result.halted ? haltOf(ctx) : null;
  if (halt) throw new RunHalted(halt);
  return { ok: true, callId, result: held.result, object, charged: held.charged, late: held.late };
}

/**
 * The result of a call stopped where its hold could not grow, or cut by its run's halt
 * (`limit` null): the text shown, its usage estimated from it (the provider reports none for
 * a cut call, or reported more than was paid for), and its price. Marked with the limit, so
 * its step says which one stopped it, or as halted.
 */
function stoppedResult(
  route: Route,
  text: string,
  limit: TCreditLimitKind | null,
  answered?: ModelCallResult,
): ModelCallResult {
  const usage = { inputTokens: route.inputTokens, outputTokens: estimateTokens(text) };
  const price = priceOf(route.model, usage.inputTokens, usage.outputTokens);
  return {
    text,
    usage,
    usageEstimated: true,
    latencyMs: answered?.latencyMs ?? 0,
    ttftMs: answered?.ttftMs ?? null,
    modelId: route.input.modelId,
    modelName: route.target.modelName,
    provider:
      answered?.provider ??
      (route.target.simulated
        ? "simulator"
        : (route.target.provider as ModelCallResult["provider"])),
    providerModel: answered?.providerModel ?? route.input.modelId,
    simulated: route.target.simulated,
    keySource: answered?.keySource ?? "hosted",
    credits: route.billable ? price : NO_CREDITS,
    finishReason: "length",
    failedAttempts: answered?.failedAttempts ?? 0,
    ...(limit ? { stoppedAt: limit } : { halted: true }),
  };
}

export interface Route {
  input: ModelCallInput;
  target: StepTarget;
  worstCase: Hundredths;
  /** What the hold is priced with: the model, the input's estimate and the output's cap. */
  model: CatalogueModel;
  inputTokens: number;
  maxOutputTokens: number;
  /** The call costs credits (hosted keys; the simulator only when it charges). */
  billable: boolean;
}

function targetOf(spec: CallSpec<unknown>, callId: string): StepTarget {
  return {
    callId,
    kind: spec.kind,
    stepId: spec.stepId,
    role: spec.role,
    modelId: spec.modelId,
    modelName: spec.modelId,
    provider: "unknown",
    simulated: false,
    task: spec.task ?? "",
    ...(spec.rerun ? { rerun: spec.rerun } : {}),
    ...(spec.passages && spec.passages.length > 0 ? { passages: spec.passages } : {}),
  };
}

/** Where the call runs and its worst case; throws when the model cannot take it. */
export function routeCall<T>(ctx: RunContext, spec: CallSpec<T>, callId: string): Route {
  const input: ModelCallInput = {
    modelId: spec.modelId,
    messages: spec.messages,
    ...(spec.system ? { system: spec.system } : {}),
    ...(spec.role ? { role: spec.role } : {}),
    ...(spec.maxOutputTokens ? { maxOutputTokens: spec.maxOutputTokens } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
    ...(spec.imagePrompt ? { imagePrompt: spec.imagePrompt } : {}),
    ...(ctx.deps.images ? { storeImage: imageKeeper(ctx, ctx.deps.images, callId) } : {}),
    userKeys: ctx.userKeys,
  };
  const estimate = ctx.deps.models.estimateCall(input);
  const resolved = ctx.deps.models.resolve(spec.modelId, ctx.userKeys);
  const target: StepTarget = {
    ...targetOf(spec, callId),
    modelName: estimate.model.name,
    provider: resolved?.targets[0]?.provider ?? resolved?.provider ?? "unknown",
    simulated: resolved?.simulated ?? false,
    inputTokens: estimate.inputTokensEstimate,
  };
  return {
    input,
    target,
    worstCase: estimate.worstCaseCredits,
    model: estimate.model,
    inputTokens: estimate.inputTokensEstimate,
    maxOutputTokens: estimate.maxOutputTokens,
    billable: estimate.worstCaseCredits > 0,
  };
}

/** The call itself: streamed text, or (with a schema) one validated object. */
async function invoke<T>(
  ctx: RunContext,
  spec: CallSpec<T>,
  input: ModelCallInput & { onPartial?: (text: string) => void },
  abortSignal: AbortSignal,
  onDelta: (delta: string) => void,
  callId: string,
  hooks: TurnHooks,
  sources: TRunPassage[],
): Promise<{ result: ModelCallResult; object: T | undefined }> {
  const common = { ...input, abortSignal };
  if (!spec.schema && spec.tools && spec.tools.length > 0) {
    const lane = {
      kind: spec.kind,
      stepId: spec.stepId,
      role: spec.role,
      callId,
      tools: spec.tools,
      sources,
    };
    const result = await runToolTurns(ctx, lane, input, abortSignal, onDelta, hooks);
    return { result, object: undefined };
  }
  if (!spec.schema) {
    return { result: await ctx.deps.models.streamModel({ ...common, onDelta }), object: undefined };
  }
  const structured = await ctx.deps.models.generateStructured({
    ...common,
    schema: spec.schema,
    schemaName: "run_plan",
  });
  return { result: structured, object: structured.object };
}

/**
 * The call's hold; a budget or a balance that cannot cover it ends the run. The budget is
 * checked before this returns (it throws at once), the balance when the promise settles.
 */
function reserveOrHalt(
  ctx: RunContext,
  target: StepTarget,
  amounts: { desired: Hundredths; minimum: Hundredths } | null,
): Promise<Reserved> {
  const halt = (error: unknown): never => {
    if (
      error instanceof AppError &&
      (error.code === RUN_ERROR_CODES.budgetExceeded || isInsufficient(error))
    ) {
      throw haltRun(ctx, failed(error.code, error.message, moneyDetailsOf(error)));
    }
    throw error;
  };
  try {
    const step = reserveAndOpenStep(stepRowOf(ctx, target));
    return reserveCall(
      ctx,
      target.callId,
      amounts?.desired ?? NO_CREDITS,
      step,
      amounts?.minimum,
    ).catch(halt);
  } catch (error) {
    return halt(error);
  }
}

/** A money refusal's limit, what is left and what the smallest step needs (decision 053). */
export function moneyDetailsOf(error: AppError): TRunMoneyFailure | undefined {
  const parsed = ZCreditRefusal.safeParse(error.details);
  if (!parsed.success) return undefined;
  const { limit, available, required } = parsed.data;
  return { limit, available, required };
}

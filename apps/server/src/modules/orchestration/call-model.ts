import { randomUUID } from "node:crypto";
import {
  AGENT_ROLE_NAMES,
  ERROR_CODES,
  formatHundredths,
  type Hundredths,
  RUN_ERROR_CODES,
  type TAgentRole,
  type TRunError,
  type TRunStepKind,
  WORKSPACE_CREDIT_ERROR_CODES,
} from "@cohort/contracts";
import type { z } from "zod";
import { AppError } from "../../platform/errors";
import type { GatewayMessage, ModelCallInput, ModelCallResult } from "../models/gateway";
import { reserveAndOpenStep } from "./call-statements";
import {
  isInsufficient,
  type Reserved,
  releaseReserved,
  reserveCall,
  withHold,
} from "./hold-credits";
import { failed, haltOf, haltRun, type RunContext, RunHalted, throwIfHalted } from "./run-context";
import { openStep, refuseStep, type StepTarget, type StepWriter, stepRowOf } from "./write-step";

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
  /** Structured output (the plan): no streaming, the object is validated by the gateway. */
  schema?: z.ZodType<T>;
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
    }
  | { ok: false; callId: string; failure: TRunError; partial: string };

const STOPPED: TRunError = { code: "stopped", message: "Stopped before it finished." };

function describeCall(kind: TRunStepKind, role: TAgentRole | null, modelName: string): string {
  const who = role ? AGENT_ROLE_NAMES[role] : "The coordinator";
  switch (kind) {
    case "plan":
      return `planning on ${modelName}`;
    case "agent":
      return `the ${who}'s step on ${modelName}`;
    case "critic":
      return `the Critic's review on ${modelName}`;
    case "revision":
      return `the ${who}'s revision on ${modelName}`;
    case "synthesis":
      return `the final answer on ${modelName}`;
  }
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
 * the hold is settled on the actual price, or released when the call fails or is stopped.
 */
export async function callModel<T = undefined>(
  ctx: RunContext,
  spec: CallSpec<T>,
): Promise<CallOutcome<T>> {
  const callId = spec.reserved?.callId ?? randomUUID();
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

  // The provider request goes out beside the hold's statement, not after it: the hold is
  // there long before a first token (one statement against a model's time to first token),
  // and nothing the model says is shown, stored or billed until it is. When the hold is
  // refused, the request is aborted and the run ends as it did before (decision 019).
  const reserving = spec.reserved
    ? Promise.resolve(spec.reserved)
    : reserveOrHalt(ctx, route.target, route.worstCase);
  const refused = new AbortController();
  let step: StepWriter | null = null;
  let partial = "";
  const answering = invoke(
    ctx,
    spec,
    route.input,
    AbortSignal.any([ctx.controller.signal, refused.signal]),
    (delta) => {
      partial += delta;
      step?.delta(delta);
    },
  );
  // Awaited below once the hold is there; until then a failure is not "unhandled".
  answering.catch(() => undefined);
  let reserved: Reserved;
  try {
    reserved = await reserving;
  } catch (error) {
    refused.abort(error);
    await answering.catch(() => undefined);
    throw error;
  }
  step = openStep(ctx, route.target);
  step.start(reserved);
  if (partial) step.delta(partial);
  let object: T | undefined;
  const output = (result: ModelCallResult) => (spec.schema ? JSON.stringify(object) : result.text);
  try {
    const held = await withHold(
      ctx,
      reserved,
      async () => {
        const answer = await answering;
        object = answer.object;
        return answer.result;
      },
      step.settling(output),
    );
    step.completed(held, output(held.result));
    return { ok: true, callId, result: held.result, object, charged: held.charged };
  } catch (error) {
    const halt = haltOf(ctx);
    if (!halt && !(error instanceof AppError)) {
      ctx.deps.log.error({ err: error, runId: ctx.runId }, "model call failed");
    }
    const failure = halt
      ? STOPPED
      : failureOf(error, spec.failureNote, "The call failed unexpectedly.");
    step.failed(failure, partial, halt !== null);
    if (halt) throw new RunHalted(halt);
    return { ok: false, callId, failure, partial };
  }
}

export interface Route {
  input: ModelCallInput;
  target: StepTarget;
  worstCase: Hundredths;
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
  return { input, target, worstCase: estimate.worstCaseCredits };
}

/** The call itself: streamed text, or (with a schema) one validated object. */
async function invoke<T>(
  ctx: RunContext,
  spec: CallSpec<T>,
  input: ModelCallInput,
  abortSignal: AbortSignal,
  onDelta: (delta: string) => void,
): Promise<{ result: ModelCallResult; object: T | undefined }> {
  const common = { ...input, abortSignal };
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
  worstCase: Hundredths,
): Promise<Reserved> {
  const what = describeCall(target.kind, target.role, target.modelName);
  const halt = (error: unknown): never => {
    if (error instanceof AppError && error.code === RUN_ERROR_CODES.budgetExceeded) {
      throw haltRun(ctx, failed(error.code, error.message));
    }
    if (isInsufficient(error) && error.code === WORKSPACE_CREDIT_ERROR_CODES.memberCapReached) {
      throw haltRun(ctx, failed(error.code, error.message));
    }
    if (isInsufficient(error)) {
      throw haltRun(
        ctx,
        failed(
          ERROR_CODES.insufficientCredits,
          `You ran out of credits: ${what} needs up to ${formatHundredths(worstCase)} credits. Add credits to continue.`,
        ),
      );
    }
    throw error;
  };
  try {
    const step = reserveAndOpenStep(stepRowOf(ctx, target));
    return reserveCall(ctx, target.callId, worstCase, what, step).catch(halt);
  } catch (error) {
    return halt(error);
  }
}

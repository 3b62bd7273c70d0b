import { randomUUID } from "node:crypto";
import {
  AGENT_ROLE_NAMES,
  ERROR_CODES,
  type TAgentRole,
  type TRunStepKind,
} from "@cohort/contracts";
import type { z } from "zod";
import { AppError } from "../../platform/errors";
import type { GatewayMessage, ModelCallResult } from "../models/gateway";
import { recordSessionSpend } from "../sessions/record-session-spend";
import type { CreditHold } from "./credits-port";
import { createDeltaBatcher, type DeltaBatcher } from "./delta-batcher";
import { drain, type RunContext, RunStop, track } from "./run-context";
import { finishStep, insertStep } from "./run-store";

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
}

export interface CallOutcome<T> {
  callId: string;
  result: ModelCallResult;
  object: T | undefined;
  /** What the call took from the balance (0 on the user's own key). */
  charged: number;
}

/** A call that did not finish: provider failure, or stopped. The step and its events are written. */
export class CallFailed extends Error {
  constructor(
    readonly callId: string,
    readonly failure: unknown,
    readonly partial: string,
    readonly stopped: boolean,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = "CallFailed";
  }

  get code(): string {
    return this.failure instanceof AppError ? this.failure.code : ERROR_CODES.internal;
  }
}

const LANE_KINDS = new Set<TRunStepKind>(["agent", "critic", "revision"]);

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

/**
 * Every model call of a run goes through here: the session budget and a credit hold for
 * the worst case first, a step row and `agent.started`, the call (streamed into batched
 * delta events), then the actual charge (or the hold released on failure and stop), the
 * step's numbers, `agent.done` and `credits.changed`.
 */
export async function callModel<T = undefined>(
  ctx: RunContext,
  spec: CallSpec<T>,
): Promise<CallOutcome<T>> {
  const { deps } = ctx;
  const prereserved = spec.kind === "plan" ? ctx.planHold : null;
  ctx.planHold = spec.kind === "plan" ? null : ctx.planHold;
  const callId = prereserved?.callId ?? randomUUID();
  if (ctx.controller.signal.aborted) {
    if (prereserved?.hold) await releaseQuietly(ctx, prereserved.hold);
    throw new CallFailed(callId, new Error("The run was stopped."), "", true);
  }
  const lane = LANE_KINDS.has(spec.kind) && spec.stepId !== null && spec.role !== null;
  const laneOf = () => ({
    call_id: callId,
    step_id: spec.stepId as string,
    kind: spec.kind as "agent" | "critic" | "revision",
  });
  const input = {
    modelId: spec.modelId,
    messages: spec.messages,
    ...(spec.system ? { system: spec.system } : {}),
    ...(spec.role ? { role: spec.role } : {}),
    ...(spec.maxOutputTokens ? { maxOutputTokens: spec.maxOutputTokens } : {}),
    userKeys: ctx.userKeys,
  };

  let hold: CreditHold | null = prereserved?.hold ?? null;
  let worstCase = prereserved?.worstCase ?? 0;
  let modelName = spec.modelId;
  let provider = "unknown";
  let simulated = false;
  try {
    const estimate = deps.models.estimateCall(input);
    const resolved = deps.models.resolve(spec.modelId, ctx.userKeys);
    modelName = estimate.model.name;
    provider = resolved?.targets[0]?.provider ?? resolved?.provider ?? "unknown";
    simulated = resolved?.simulated ?? false;
    if (!prereserved) worstCase = estimate.worstCaseCredits;
    ctx.budget.take(worstCase, describeCall(spec.kind, spec.role, modelName));
  } catch (error) {
    if (hold) await releaseQuietly(ctx, hold);
    if (error instanceof RunStop) throw error;
    if (lane) {
      // E.g. a model taken out of the catalogue since the session chose it.
      void ctx.events.append({
        type: "agent.done",
        ...laneOf(),
        role: spec.role as TAgentRole,
        status: "failed",
        provider: null,
        simulated: null,
        input_tokens: 0,
        output_tokens: 0,
        credits: 0,
        latency_ms: null,
        ttft_ms: null,
        error: {
          code: error instanceof AppError ? error.code : ERROR_CODES.internal,
          message: [error instanceof AppError ? error.message : "", spec.failureNote]
            .filter(Boolean)
            .join(" "),
        },
      });
    }
    throw new CallFailed(callId, error, "", false);
  }
  if (!prereserved && worstCase > 0) {
    const reserve = () => deps.credits.reserve(ctx.userId, worstCase, `run:${ctx.runId}:${callId}`);
    try {
      hold = await reserve().catch(async (error: unknown) => {
        if (!(error instanceof AppError) || error.code !== ERROR_CODES.insufficientCredits) {
          throw error;
        }
        // Earlier calls' holds may still be open while their charges are booked: once they
        // are, their unused parts are available again.
        await drain(ctx);
        return reserve();
      });
    } catch (error) {
      ctx.budget.release(worstCase);
      if (error instanceof AppError && error.code === ERROR_CODES.insufficientCredits) {
        throw new RunStop(
          ERROR_CODES.insufficientCredits,
          `You ran out of credits: ${describeCall(spec.kind, spec.role, modelName)} needs up to ${worstCase} credits. Add credits to continue.`,
        );
      }
      throw error;
    }
  }

  // The step row is written while the call runs: bookkeeping stays off the critical path.
  const stepSaved = insertStep(deps.db, {
    id: callId,
    runId: ctx.runId,
    kind: spec.kind,
    stepId: spec.stepId,
    role: spec.role,
    model: spec.modelId,
    modelName,
    provider,
    simulated,
    holdId: hold?.id ?? null,
    reservedCredits: hold?.amount ?? 0,
  }).then(
    () => true,
    (error: unknown) => {
      deps.log.error({ err: error, runId: ctx.runId, callId }, "step not saved");
      return false;
    },
  );
  if (lane) {
    void ctx.events.append({
      type: "agent.started",
      ...laneOf(),
      role: spec.role as TAgentRole,
      task: spec.task ?? "",
      model: spec.modelId,
      model_name: modelName,
      provider,
      simulated,
    });
  }

  let text = "";
  let batcher: DeltaBatcher | null = null;
  if (!spec.schema) {
    batcher = createDeltaBatcher((piece) => {
      const event = lane
        ? ({ type: "agent.delta", ...laneOf(), text: piece } as const)
        : spec.kind === "synthesis"
          ? ({ type: "final.delta", call_id: callId, text: piece } as const)
          : null;
      if (event) void ctx.events.append(event);
    });
  }

  let result: ModelCallResult;
  let object: T | undefined;
  try {
    const common = { ...input, abortSignal: ctx.controller.signal };
    if (spec.schema) {
      const structured = await deps.models.generateStructured({
        ...common,
        schema: spec.schema,
        schemaName: "run_plan",
      });
      result = structured;
      object = structured.object;
    } else {
      result = await deps.models.streamModel({
        ...common,
        onDelta: (delta) => {
          text += delta;
          batcher?.push(delta);
        },
      });
    }
    batcher?.close();
  } catch (error) {
    batcher?.close();
    const stopped = ctx.controller.signal.aborted;
    ctx.budget.release(worstCase);
    const message = error instanceof Error ? error.message : String(error);
    const failure = stopped
      ? { code: "stopped", message: "Stopped before it finished." }
      : {
          code: error instanceof AppError ? error.code : ERROR_CODES.internal,
          message: [
            error instanceof AppError ? message : "The call failed unexpectedly.",
            spec.failureNote,
          ]
            .filter(Boolean)
            .join(" "),
        };
    if (!(error instanceof AppError)) {
      deps.log.error({ err: error, runId: ctx.runId }, "model call failed");
    }
    if (lane) {
      void ctx.events.append({
        type: "agent.done",
        ...laneOf(),
        role: spec.role as TAgentRole,
        status: stopped ? "stopped" : "failed",
        provider,
        simulated,
        input_tokens: 0,
        output_tokens: 0,
        credits: 0,
        latency_ms: null,
        ttft_ms: null,
        error: failure,
      });
    }
    track(ctx, async () => {
      if (hold) await releaseQuietly(ctx, hold);
      if (!(await stepSaved)) return;
      await finishStep(deps.db, callId, {
        status: stopped ? "stopped" : "failed",
        provider: null,
        simulated: null,
        keySource: null,
        credits: 0,
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: null,
        ttftMs: null,
        output: text,
        error: failure,
      });
    });
    throw new CallFailed(callId, error, text, stopped);
  }

  // The credits module charges the price, never more than the hold: known now, booked later.
  const charged = hold ? Math.min(round2(result.credits), hold.amount) : 0;
  ctx.budget.settle(worstCase, charged);
  ctx.totals.credits = round2(ctx.totals.credits + charged);
  ctx.totals.inputTokens += result.usage.inputTokens;
  ctx.totals.outputTokens += result.usage.outputTokens;
  if (lane) {
    void ctx.events.append({
      type: "agent.done",
      ...laneOf(),
      role: spec.role as TAgentRole,
      status: "completed",
      provider: result.provider,
      simulated: result.simulated,
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      credits: charged,
      latency_ms: result.latencyMs,
      ttft_ms: result.ttftMs,
      error: null,
    });
  }
  const done = result;
  track(ctx, async () => {
    const usage = {
      model: spec.modelId,
      provider: done.provider,
      inputTokens: done.usage.inputTokens,
      outputTokens: done.usage.outputTokens,
      credits: done.credits,
    };
    let booked = 0;
    let balance: { balance: number; available: number } | null = null;
    try {
      if (hold) {
        const charge = await deps.credits.settle(hold, usage);
        booked = charge.charged;
        balance = charge;
      } else {
        await deps.credits.recordFree(ctx.userId, `run:${ctx.runId}:${callId}`, usage);
      }
    } catch (error) {
      // The hold stays open and the sweeper gives it back: the user is not charged twice.
      deps.log.error({ err: error, runId: ctx.runId, callId }, "call could not be charged");
    }
    if (booked !== charged) {
      // Only when a hold expired mid-call (then the charge is capped by the balance).
      ctx.totals.credits = round2(ctx.totals.credits + booked - charged);
    }
    const sessionSpent =
      booked > 0 ? await recordSessionSpend(deps.db, ctx.sessionId, booked) : null;
    if (await stepSaved) {
      await finishStep(deps.db, callId, {
        status: "completed",
        provider: done.provider,
        simulated: done.simulated,
        keySource: done.keySource,
        credits: booked,
        inputTokens: done.usage.inputTokens,
        outputTokens: done.usage.outputTokens,
        latencyMs: done.latencyMs,
        ttftMs: done.ttftMs,
        output: spec.schema ? JSON.stringify(object) : done.text,
        error: null,
      });
    }
    if (sessionSpent !== null && balance) {
      void ctx.events.append({
        type: "credits.changed",
        call_id: callId,
        credits: booked,
        run_credits: ctx.totals.credits,
        session_spent_credits: sessionSpent,
        balance: balance.balance,
        available: balance.available,
      });
    }
  });
  return { callId, result, object, charged };
}

async function releaseQuietly(ctx: RunContext, hold: CreditHold): Promise<void> {
  try {
    await ctx.deps.credits.release(hold.id);
  } catch (error) {
    ctx.deps.log.error({ err: error, runId: ctx.runId, holdId: hold.id }, "hold not released");
  }
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

import {
  CREDIT_LIMIT_STOP_MESSAGES,
  citedNumbers,
  creditsOf,
  estimateTokens,
  type Hundredths,
  hundredths,
  NO_CREDITS,
  SPENDING_ERROR_CODES,
  type TAgentRole,
  type TRunError,
  type TRunPassage,
  type TRunStepKind,
} from "@cohort/contracts";
import type { ModelCallResult } from "../models/gateway";
import { createDeltaBatcher, type DeltaBatcher } from "./delta-batcher";
import type { Booked, HeldResult, Reserved, StepToEnd } from "./hold-credits";
import { insertStepPassages } from "./material-store";
import { type RunContext, track } from "./run-context";
import type { RunEventInput } from "./run-events";
import { finishStep, insertStep, type NewStep, type StepEnding } from "./run-store";

/** Which call a step is, and where it runs. */
export interface StepTarget {
  callId: string;
  kind: TRunStepKind;
  /** The plan step it works on (agents, the Critic, revisions). */
  stepId: string | null;
  role: TAgentRole | null;
  modelId: string;
  modelName: string;
  provider: string;
  simulated: boolean;
  /** Shown in agent.started for lanes. */
  task: string;
  /** The prompt's size as estimated for the hold: a stopped call's input tokens. */
  inputTokens?: number;
  /** A re-run of a plan step (decision 031). */
  rerun?: NewStep["rerun"];
  /** The document passages in its prompt, numbered for the run (decision 037). */
  passages?: readonly TRunPassage[];
}

/** The numbers among the passages a call was given that its output cites, in order. */
export function citedIn(output: string, passages: readonly TRunPassage[]): number[] {
  const given = new Set(passages.map((p) => p.n));
  return citedNumbers(output).filter((n) => given.has(n));
}

/**
 * A call's record: its step row and every event it sends. The lanes (agents, the Critic,
 * revisions) send `agent.started`, `agent.delta` and `agent.done`; the synthesis streams
 * `final.delta`; the plan sends nothing here (its preview, `plan.delta`, is `plan-preview.ts`,
 * decision 079). A charged call adds `credits.changed`.
 */
export interface StepWriter {
  /**
   * Opens the call's lane, and its step row unless the hold's statement opened it
   * (`reserved.written`); then the row is written beside the call.
   */
  start(reserved: Reserved): void;
  /** The step row's part in the call's settlement (`withHold`): its end, from the answer. */
  settling(output: (result: ModelCallResult) => string): StepToEnd;
  /** A piece of streamed text: batched into delta events. */
  delta(text: string): void;
  /** The call answered: its lane closes now, its row and charge once booked. */
  completed(held: HeldResult, output: string): void;
  /** The call failed or was stopped: `partial` is the text that had arrived. */
  failed(failure: TRunError, partial: string, stopped: boolean): void;
}

const LANE_KINDS = new Set<TRunStepKind>(["agent", "critic", "revision"]);

type Lane = { call_id: string; step_id: string; kind: "agent" | "critic" | "revision" };

/** A re-written answer's identity in its events (decision 031); null for any other call. */
function answerVersionOf(target: StepTarget) {
  const rerun = target.rerun;
  if (target.kind !== "synthesis" || !rerun?.answerFor) return null;
  return {
    call_id: target.callId,
    rerun_call_id: rerun.of,
    rerun_step_id: rerun.answerFor,
    version: rerun.version,
    model: target.modelId,
    model_name: target.modelName,
  };
}

function laneOf(target: StepTarget): (Lane & { role: TAgentRole }) | null {
  if (!LANE_KINDS.has(target.kind) || target.stepId === null || target.role === null) return null;
  return {
    call_id: target.callId,
    step_id: target.stepId,
    kind: target.kind as Lane["kind"],
    role: target.role,
  };
}

const NO_USAGE = {
  input_tokens: 0,
  output_tokens: 0,
  credits: 0,
  latency_ms: null,
  ttft_ms: null,
} as const;

/** The step row a call opens. */
export function stepRowOf(ctx: RunContext, target: StepTarget): NewStep {
  return {
    id: target.callId,
    runId: ctx.runId,
    kind: target.kind,
    stepId: target.stepId,
    role: target.role,
    model: target.modelId,
    modelName: target.modelName,
    provider: target.provider,
    simulated: target.simulated,
    rerun: target.rerun,
  };
}

/** A call cut by its run's halt. */
export const STOPPED: TRunError = { code: "stopped", message: "Stopped before it finished." };

/**
 * A call stopped where its hold could not grow (marked with the limit), or cut by its run's
 * halt: kept as an answer and charged for what it showed (decision 053).
 */
function limitStopOf(result: ModelCallResult): TRunError | null {
  if (result.stoppedAt) {
    return {
      code: SPENDING_ERROR_CODES.stoppedAtLimit,
      message: CREDIT_LIMIT_STOP_MESSAGES[result.stoppedAt],
    };
  }
  return result.halted ? STOPPED : null;
}

function answeredEnding(
  result: ModelCallResult,
  credits: Hundredths,
  output: string,
  toolCredits: Hundredths,
): StepEnding {
  const stop = limitStopOf(result);
  return {
    toolCredits,
    status: stop ? "stopped" : "completed",
    provider: result.provider,
    simulated: result.simulated,
    keySource: result.keySource,
    credits,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    latencyMs: result.latencyMs,
    ttftMs: result.ttftMs,
    output,
    error: stop,
    limit: result.stoppedAt ?? null,
    wouldBeCredits: result.wouldBeCredits ?? null,
  };
}

/** The money fields of a call's done event: its stopping limit, a simulated call's price. */
function moneyMarks(result: ModelCallResult) {
  return {
    ...(result.stoppedAt ? { limit: result.stoppedAt, usage_estimated: true } : {}),
    ...(result.halted ? { usage_estimated: true } : {}),
    ...(result.wouldBeCredits !== undefined
      ? { would_be_credits: creditsOf(result.wouldBeCredits) }
      : {}),
  };
}

/**
 * A call that could not begin (e.g. a model taken out of the catalogue since the session
 * chose it): its lane ends at once; there is no step row, as nothing ran.
 */
export function refuseStep(ctx: RunContext, target: StepTarget, error: TRunError): void {
  const lane = laneOf(target);
  if (!lane) return;
  void ctx.events.append({
    type: "agent.done",
    ...lane,
    status: "failed",
    provider: null,
    simulated: null,
    ...NO_USAGE,
    error,
  });
}

export function openStep(ctx: RunContext, target: StepTarget): StepWriter {
  const { deps } = ctx;
  const lane = laneOf(target);
  const answer = answerVersionOf(target);
  const send = (event: RunEventInput) => void ctx.events.append(event);
  let saved: Promise<boolean> = Promise.resolve(false);
  let batcher: DeltaBatcher | null = null;
  const passages = target.passages ?? [];
  // What the call was given and cited, stored once it ended (its row may still be on its way).
  const storePassages = (cited: readonly number[]) => {
    if (passages.length === 0) return;
    const given = passages.map((p) => p.n);
    track(ctx, () => insertStepPassages(deps.db, ctx.runId, target.callId, given, cited));
  };

  // The lane's priced tool calls, each settled on its own hold (tool-loop.ts): part of the
  // lane's step credits, so a lane shows what its whole step cost (decision 067).
  const toolCredits = (): Hundredths => ctx.tools.charged.get(target.callId) ?? NO_CREDITS;
  const toolMarks = () => {
    const tools = toolCredits();
    return tools > 0 ? { tool_credits: creditsOf(tools) } : {};
  };
  const writeEnd = async (ending: StepEnding) => {
    if (await saved) await finishStep(deps.db, target.callId, ending);
  };

  return {
    start(reserved) {
      saved = reserved.written
        ? Promise.resolve(true)
        : insertStep(deps.db, stepRowOf(ctx, target), reserved.hold).then(
            () => true,
            (error: unknown) => {
              const details = { err: error, runId: ctx.runId, callId: target.callId };
              deps.log.error(details, "step not saved");
              return false;
            },
          );
      if (lane) {
        send({
          type: "agent.started",
          ...lane,
          task: target.task,
          model: target.modelId,
          model_name: target.modelName,
          provider: target.provider,
          simulated: target.simulated,
          ...(target.rerun
            ? {
                version: target.rerun.version,
                rerun_of: target.rerun.of,
                temperature: target.rerun.temperature,
              }
            : {}),
        });
        if (passages.length > 0) {
          const { call_id, step_id, kind } = lane;
          send({ type: "step.passages", call_id, step_id, kind, passages: [...passages] });
        }
      } else if (answer) {
        send({
          type: "final.version",
          ...answer,
          status: "running",
          provider: target.provider,
          simulated: target.simulated,
          credits: 0,
          input_tokens: 0,
          output_tokens: 0,
          error: null,
        });
      }
    },

    settling(output) {
      return {
        opened: saved,
        ending: (result, charged) => answeredEnding(result, charged, output(result), toolCredits()),
      };
    },

    delta(text) {
      batcher ??= createDeltaBatcher((piece) => {
        if (lane) {
          const { call_id, step_id, kind } = lane;
          send({ type: "agent.delta", call_id, step_id, kind, text: piece });
        } else if (target.kind === "synthesis") {
          send({
            type: "final.delta",
            call_id: target.callId,
            text: piece,
            ...(answer ? { rerun_call_id: answer.rerun_call_id } : {}),
          });
        }
      });
      batcher.push(text);
    },

    completed({ result, charged, booked, late }, output) {
      batcher?.close();
      const cited = citedIn(output, passages);
      storePassages(cited);
      if (lane) {
        const stop = limitStopOf(result);
        send({
          type: "agent.done",
          ...lane,
          status: stop ? "stopped" : "completed",
          provider: result.provider,
          simulated: result.simulated,
          input_tokens: result.usage.inputTokens,
          output_tokens: result.usage.outputTokens,
          credits: creditsOf(hundredths(charged + toolCredits())),
          latency_ms: result.latencyMs,
          ttft_ms: result.ttftMs,
          error: stop,
          ...(passages.length > 0 ? { cited } : {}),
          ...moneyMarks(result),
          ...toolMarks(),
        });
      } else if (answer) {
        send({
          type: "final.version",
          ...answer,
          status: limitStopOf(result) ? "stopped" : "completed",
          provider: result.provider,
          simulated: result.simulated,
          credits: creditsOf(charged),
          input_tokens: result.usage.inputTokens,
          output_tokens: result.usage.outputTokens,
          error: limitStopOf(result),
          ...(passages.length > 0
            ? { citations: passages.filter((p) => cited.includes(p.n)) }
            : {}),
        });
      }
      // The row keeps what was booked, which differs from `charged` only when the hold
      // expired mid-call; credits.changed follows the row, so a reader never sees it first.
      // Usually the settlement's statement ended the row; else it is ended here.
      const afterBooked = async (done: Booked) => {
        if (!done.stepEnded) {
          await writeEnd(answeredEnding(result, done.charged, output, toolCredits()));
        }
        if (done.sessionSpent === null || !done.balance) return;
        send({
          type: "credits.changed",
          call_id: target.callId,
          credits: creditsOf(hundredths(done.charged + toolCredits())),
          run_credits: creditsOf(ctx.totals.credits),
          session_spent_credits: creditsOf(done.sessionSpent),
          balance: creditsOf(done.balance.balance),
          available: creditsOf(done.balance.available),
        });
      };
      // A call the run's end books (decision 091) sends its event from there, before the
      // run's end event; `drain` must not wait for it.
      if (late) late.afterBooked(afterBooked);
      else track(ctx, async () => afterBooked(await booked));
    },

    failed(failure, partial, stopped) {
      batcher?.close();
      storePassages([]);
      // A stopped call's usage is never reported by the provider: the tokens are estimated
      // from its prompt and the text that arrived, and nothing is charged (a shutdown's cut:
      // its hold is released), so the lane shows what it used, not "0 tokens" beside its text.
      const inputTokens = stopped ? (target.inputTokens ?? 0) : 0;
      const outputTokens = stopped ? estimateTokens(partial) : 0;
      if (lane) {
        send({
          type: "agent.done",
          ...lane,
          status: stopped ? "stopped" : "failed",
          provider: target.provider,
          simulated: target.simulated,
          ...NO_USAGE,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          // Tools that ran before the call failed were charged: the lane says so.
          credits: creditsOf(toolCredits()),
          error: failure,
          ...(stopped ? { usage_estimated: true } : {}),
          ...toolMarks(),
        });
      } else if (answer) {
        send({
          type: "final.version",
          ...answer,
          status: stopped ? "stopped" : "failed",
          provider: target.provider,
          simulated: target.simulated,
          credits: 0,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          error: failure,
        });
      }
      track(ctx, () =>
        writeEnd({
          status: stopped ? "stopped" : "failed",
          provider: null,
          simulated: null,
          keySource: null,
          credits: NO_CREDITS,
          toolCredits: toolCredits(),
          inputTokens,
          outputTokens,
          latencyMs: null,
          ttftMs: null,
          output: partial,
          error: failure,
        }),
      );
    },
  };
}

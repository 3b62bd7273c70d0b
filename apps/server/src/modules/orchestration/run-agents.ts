import {
  AGENT_ROLE_NAMES,
  RUN_ERROR_CODES,
  type TPlannedStep,
  type TRunError,
  type TRunPlanView,
} from "@cohort/contracts";
import { isUserKeyRefusal } from "../models/call-failures";
import { UNTRUSTED_RULE } from "../tools/run-tool";
import type { ToolDefinition } from "../tools/tool-definition";
import type { CallOutcome, CallSpec } from "./call-model";
import { stepLaneTools } from "./plan-tools";
import {
  AGENT_MAX_OUTPUT_TOKENS,
  agentContent,
  type DraftText,
  messagesFor,
  roleInstructions,
} from "./prompts";
import { appendToPrompt, takeQueuedMessages, userNotesBlock } from "./queued-messages";
import { failed, haltForError, haltRun, type RunContext, throwIfHalted } from "./run-context";
import { callLane, skippedMessage } from "./steer-lane";

export interface Draft extends DraftText {
  ok: boolean;
  /** A failed step's error, without what the run does next. */
  error?: TRunError;
}

/**
 * The agents phase: every step whose dependencies are done starts at once, so independent
 * steps run in parallel, each on its role's model. A step that fails (after the gateway's
 * own retries and provider fallback) is left out and the others go on; its dependents work
 * without its result. A halt aborts the rest, and waits for them to wind down.
 */
export async function runAgents(
  ctx: RunContext,
  plan: TRunPlanView,
  done: ReadonlyMap<string, Draft> = new Map(),
): Promise<Map<string, Draft>> {
  const steps = plan.steps.filter((s) => s.phase === "agent");
  // A resumed run (decision 047) keeps the calls that had ended: only the others run.
  const drafts = new Map<string, Draft>(done);
  const running = new Map<string, Promise<void>>();
  const started = new Set<string>(done.keys());
  let failure: unknown = null;

  const launch = (step: TPlannedStep) => {
    started.add(step.id);
    const task = runStep(ctx, step, drafts)
      .then((draft) => {
        drafts.set(step.id, draft);
      })
      .catch((error: unknown) => {
        failure ??= haltForError(ctx, error);
      })
      .finally(() => {
        running.delete(step.id);
      });
    running.set(step.id, task);
  };

  while (drafts.size < steps.length && failure === null && !ctx.controller.signal.aborted) {
    for (const step of steps) {
      if (started.has(step.id)) continue;
      if (step.depends_on.every((id) => drafts.has(id) || !steps.some((s) => s.id === id))) {
        launch(step);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  await Promise.allSettled([...running.values()]);
  if (failure !== null) throw failure;
  throwIfHalted(ctx);
  if (![...drafts.values()].some((d) => d.ok)) {
    // Every step on a key the provider refused: that key is the reason, and trying again
    // cannot help until it is replaced (decision 029).
    const refused = [...drafts.values()].map((d) => d.error);
    const keyError = refused.every((e) => e && isUserKeyRefusal(e.code)) ? refused[0] : undefined;
    throw haltRun(
      ctx,
      keyError
        ? failed(keyError.code, keyError.message)
        : failed(
            RUN_ERROR_CODES.allAgentsFailed,
            "No agent could finish its step, so there is nothing to build an answer from. Please try again in a moment.",
          ),
    );
  }
  return drafts;
}

async function runStep(
  ctx: RunContext,
  step: TPlannedStep,
  drafts: Map<string, Draft>,
): Promise<Draft> {
  const call = agentCall(ctx, step, step.model, drafts);
  // Messages the user sent while the team worked, taken at this boundary (decision 069).
  call.messages = appendToPrompt(
    call.messages,
    userNotesBlock(await takeQueuedMessages(ctx, step.id)),
  );
  // The tools the plan expects this step to use, among those the session lets its role use
  // (decisions 058, 067; a plan edited in review may change them, decision 069); none: a plain
  // call as before.
  offerTools(call, await stepLaneTools(ctx, step));
  // A person may steer or skip the lane while it works (decision 069).
  const lane = await callLane(ctx, step, call);
  if (lane.skipped) {
    const error = { code: "skipped", message: skippedMessage(step) };
    return { stepId: step.id, role: step.role, text: lane.text, ok: false, error };
  }
  const outcome = lane.outcome as CallOutcome<undefined>;
  if (outcome.ok) {
    return { stepId: step.id, role: step.role, text: lane.text, ok: true };
  }
  ctx.deps.log.warn(
    { runId: ctx.runId, stepId: step.id, code: outcome.failure.code },
    "an agent failed; the run continues without it",
  );
  const { code, message } = outcome.failure;
  const note = call.failureNote ?? "";
  const error = {
    code,
    message: note && message.endsWith(note) ? message.slice(0, -note.length).trim() : message,
  };
  return { stepId: step.id, role: step.role, text: outcome.partial, ok: false, error };
}

/** Gives a lane's call its tools and the rule that tool output is data (decision 058). */
export function offerTools(call: CallSpec<undefined>, tools: readonly ToolDefinition[]): void {
  if (tools.length === 0) return;
  call.tools = tools;
  call.system = [call.system, UNTRUSTED_RULE].filter(Boolean).join("\n\n");
}

/**
 * An agent step's call on `modelId`: its sub-task with the drafts it depends on (and a note
 * for each one that failed). A re-run (decision 031) builds the same call on another model.
 */
export function agentCall(
  ctx: RunContext,
  step: TPlannedStep,
  modelId: string,
  drafts: ReadonlyMap<string, Draft>,
): CallSpec<undefined> {
  const inputs = step.depends_on.flatMap((id) => {
    const d = drafts.get(id);
    return d?.ok ? [d] : [];
  });
  const missing = step.depends_on.flatMap((id) => {
    const d = drafts.get(id);
    return d && !d.ok ? [{ stepId: id, role: d.role }] : [];
  });
  const passages = ctx.material.stepPassages.get(step.id) ?? [];
  // Instructions given to this step in plan review follow the role's own (decision 069).
  const instructions = [
    roleInstructions(ctx.preferences, step.role),
    step.instructions ? `The user's instructions for this step:\n${step.instructions}` : null,
  ]
    .filter(Boolean)
    .join("\n\n");
  const content = agentContent(
    ctx.message.content,
    step.task,
    inputs,
    missing,
    passages,
    instructions || null,
  );
  return {
    kind: "agent",
    stepId: step.id,
    role: step.role,
    modelId,
    task: step.task,
    messages: messagesFor(ctx, modelId, content, {
      system: "",
      maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS,
      history: true,
    }),
    maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS,
    ...(step.temperature !== undefined ? { temperature: step.temperature } : {}),
    failureNote: `The run continues without the ${AGENT_ROLE_NAMES[step.role]}.`,
    passages,
    // On an image model the step's task is the picture, the request its context (decision 064).
    imagePrompt: `${step.task}\n\nContext: ${ctx.message.content}`,
  };
}

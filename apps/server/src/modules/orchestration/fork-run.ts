import { randomUUID } from "node:crypto";
import {
  AGENT_ROLE_NAMES,
  BRANCH_ERROR_CODES,
  ERROR_CODES,
  forkedSteps,
  RUN_ERROR_CODES,
  type TAgentPreferences,
  type TChatResponse,
  type TPlannedStep,
  type TRunFork,
  type TRunPlanView,
  type TRunStep,
  type ZForkStepRequest,
} from "@cohort/contracts";
import type { z } from "zod";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { ancestorsOf } from "./branch-history";
import { loadEndedRun, messageOf } from "./ended-run-work";
import { roleToolsFor } from "./plan-tools";
import { HISTORY_MESSAGES } from "./prompts";
import { checkModel } from "./rerun-step";
import { resumePointOf } from "./resume-point";
import { createRunContext, type EngineDeps, type RunContext } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { getRun, isUniqueViolation } from "./run-store";
import type { StepTarget } from "./step-params";

type ForkRequest = z.output<typeof ZForkStepRequest>;

/**
 * A fork's role instructions (decision 070): the forked step's role gets the fork's note in
 * place of the session's, for the calls the fork makes (kept steps are not called again).
 */
export function forkPreferences(
  preferences: TAgentPreferences,
  plan: TRunPlanView | null,
  fork: TRunFork | undefined,
): TAgentPreferences {
  if (!fork?.instructions) return preferences;
  const role = plan?.steps.find((s) => s.id === fork.step_id)?.role;
  if (!role) return preferences;
  const current = preferences[role] ?? { enabled: true, model: null, instructions: "" };
  return { ...preferences, [role]: { ...current, instructions: fork.instructions } };
}

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/fork (decision 070): a new run of the
 * same message — a version of its answer — that keeps every agent step the chosen one does
 * not lead to (copied rows: not called, not charged) and the plan, and runs the chosen step
 * (on `model`, with `instructions`), every step that depends on it, the Critic's review and
 * the answer again, as a run resumed from those copied calls. Only what it runs is charged.
 */
export async function forkRun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  target: StepTarget,
  request: ForkRequest,
): Promise<TChatResponse> {
  const ended = await loadEndedRun(
    deps,
    control,
    principal,
    target,
    "This run is still going. Wait for it to finish or stop it, then fork it.",
  );
  const { run, userKeys, session } = ended;
  const plan = run.plan;
  const step = plan?.steps.find((s) => s.id === target.stepId && s.phase === "agent");
  if (!plan || !step) {
    throw new AppError(ERROR_CODES.notFound, 404, `This run has no agent step "${target.stepId}".`);
  }
  const own = (s: TRunStep) => s.rerun_of === null && s.version === 1;
  const first = run.steps.find((s) => own(s) && s.kind === "agent" && s.step_id === step.id);
  const asked = messageOf(ended);
  if (first?.status !== "completed" || !asked) {
    throw new AppError(
      BRANCH_ERROR_CODES.stepNotCompleted,
      409,
      "Only a step that completed can be forked. Re-run the message instead.",
    );
  }
  checkModel(deps, step, request.model, { userKeys });

  const rerun = forkedSteps(plan.steps, step.id);
  const modelFor = (id: string, role: (typeof plan.steps)[number]["role"]) => {
    if (id === step.id) return request.model;
    // "Also for the steps after it": where the model suits their role (else theirs stays).
    if (request.rest && rerun.has(id)) {
      const suits = deps.models.catalogue.getRole(role)?.suitableModels.includes(request.model);
      if (suits) return request.model;
    }
    return null;
  };
  const fork: TRunFork = {
    from_run_id: run.id,
    step_id: step.id,
    model: request.model,
    instructions: request.instructions ? request.instructions : null,
    rest: request.rest,
    rerun_steps: plan.steps.filter((s) => rerun.has(s.id)).map((s) => s.id),
    ...(request.tools ? { tools: [...new Set(request.tools)] } : {}),
  };
  const forkId = randomUUID();
  const ctx = createRunContext(
    deps,
    {
      ...session,
      agent_preferences: forkPreferences(session.agent_preferences ?? {}, plan, fork),
    },
    {
      runId: forkId,
      userId: principal.user.id,
      mode: run.mode,
      coordinatorModel: run.coordinator_model,
      userKeys,
      message: asked.message,
      history: ancestorsOf(ended.tree, asked.message.parent_run_id ?? null)
        .slice(-HISTORY_MESSAGES)
        .map((m) => ({ role: m.role, content: m.content })),
      status: "running",
    },
  );
  // The step's tools: only ones its role may use in this session (a 400 that changes nothing
  // otherwise); with `rest`, the re-run steps after it get those their own role may use.
  const toolsFor = await forkTools(ctx, step, fork.tools ?? null);
  const chosen = deps.models.catalogue.getModel(request.model);
  const forkPlan: TRunPlanView = {
    ...plan,
    steps: await Promise.all(
      plan.steps.map(async (s) => {
        const model = modelFor(s.id, s.role);
        const next = model && chosen ? { ...s, model, model_name: chosen.name } : s;
        const tools =
          s.id === step.id || (request.rest && rerun.has(s.id)) ? await toolsFor(s) : null;
        return tools ? { ...next, tools } : next;
      }),
    ),
  };
  // Kept as they are: the plan and the agent steps the forked one does not lead to.
  const kept = run.steps.filter(
    (s) =>
      own(s) &&
      (s.kind === "plan" ||
        (s.kind === "agent" && s.step_id !== null && !rerun.has(s.step_id) && isEnded(s))),
  );

  const copies = kept.map((s) => ({ from: s, id: randomUUID() }));
  try {
    await deps.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO runs (id, session_id, user_id, message_id, mode, coordinator_model,
           instance_id, status, plan, fork)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8::jsonb, $9::jsonb)`,
        [
          forkId,
          session.id,
          principal.user.id,
          run.message_id,
          run.mode,
          run.coordinator_model,
          control.instanceId,
          JSON.stringify(forkPlan),
          JSON.stringify(fork),
        ],
      );
      for (const { from, id } of copies) {
        await tx.query(
          `INSERT INTO run_steps (id, run_id, kind, step_id, role, model, model_name, provider,
             simulated, key_source, status, stopped, credits, input_tokens, output_tokens,
             latency_ms, ttft_ms, output, error_code, error_message, finished_at, copied_from)
           SELECT $1, $2, kind, step_id, role, model, model_name, provider, simulated,
             key_source, status, stopped, 0, 0, 0, latency_ms, ttft_ms, output, error_code,
             error_message, clock_timestamp(), id
           FROM run_steps WHERE id = $3`,
          [id, forkId, from.id],
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(
        RUN_ERROR_CODES.runInProgress,
        409,
        "A task is already running in this session. Wait for it to finish or stop it first.",
      );
    }
    throw error;
  }

  // Its events as a run's (a reload replays them from the first): started, the plan, and
  // the kept steps as they were, at no cost.
  const started = await ctx.events.append({
    type: "run.started",
    message: asked.message,
    mode: run.mode,
    coordinator_model: run.coordinator_model,
  });
  await deps.db.query("UPDATE runs SET first_seq = $2 WHERE id = $1", [forkId, started.seq]);
  await ctx.events.append({ type: "run.plan", plan: forkPlan, credits: 0, repaired: false });
  for (const { from, id } of copies) {
    if (from.kind !== "agent" || !from.step_id || !from.role) continue;
    const base = { call_id: id, step_id: from.step_id, kind: "agent" as const };
    await ctx.events.append({
      type: "agent.started",
      ...base,
      role: from.role,
      task: plan.steps.find((s) => s.id === from.step_id)?.task ?? "",
      model: from.model,
      model_name: from.model_name,
      provider: from.provider ?? "",
      simulated: from.simulated ?? false,
    });
    if (from.output) await ctx.events.append({ type: "agent.delta", ...base, text: from.output });
    await ctx.events.append({
      type: "agent.done",
      ...base,
      role: from.role,
      status: from.status === "completed" ? "completed" : "failed",
      provider: from.provider,
      simulated: from.simulated,
      input_tokens: 0,
      output_tokens: 0,
      credits: 0,
      latency_ms: from.latency_ms,
      ttft_ms: from.ttft_ms,
      error: from.error,
    });
  }
  const stored = await getRun(deps.db, forkId);
  if (!stored) throw new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");
  control.launch(ctx, resumePointOf(stored));
  return { run_id: forkId, message_id: run.message_id };
}

/**
 * The tools each re-run step of a fork is offered: `tools` (checked against the forked step's
 * role), or, for a later step, those of them its role may use; null keeps a step's own.
 */
async function forkTools(
  ctx: RunContext,
  step: TPlannedStep,
  tools: readonly string[] | null,
): Promise<(s: TPlannedStep) => Promise<string[] | null>> {
  if (tools === null) return async () => null;
  const allowed = new Set((await roleToolsFor(ctx, step.role)).map((t) => t.name));
  const refused = tools.filter((name) => !allowed.has(name));
  if (refused.length > 0) {
    const names = refused.map((n) => `"${n}"`).join(", ");
    throw new AppError(
      BRANCH_ERROR_CODES.unknownTool,
      400,
      `The ${AGENT_ROLE_NAMES[step.role]} cannot use ${names} in this session. ${
        allowed.size > 0
          ? `Its tools: ${[...allowed].join(", ")}.`
          : "It has no tools in this session."
      }`,
      { tools: refused },
    );
  }
  return async (s) => {
    if (s.id === step.id) return [...tools];
    const own = new Set((await roleToolsFor(ctx, s.role)).map((t) => t.name));
    return tools.filter((name) => own.has(name));
  };
}

const isEnded = (s: TRunStep) => s.status === "completed" || s.status === "failed";

import { randomUUID } from "node:crypto";
import {
  AGENT_ROLE_NAMES,
  ERROR_CODES,
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TPlannedStep,
  type TRerunStepResponse,
  type ZRerunStepRequest,
} from "@cohort/contracts";
import type { z } from "zod";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { type CallSpec, callModel } from "./call-model";
import {
  draftsOf,
  endedRunContext,
  launchRerunWork,
  loadEndedRun,
  messageOf,
  openRerunCall,
  rerunInProgress,
} from "./ended-run-work";
import { scoreDrafts } from "./review-drafts";
import { agentCall, type Draft } from "./run-agents";
import type { EngineDeps, RunContext } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { storeRerunScore } from "./run-store";
import type { StepTarget } from "./step-params";

type RerunRequest = z.output<typeof ZRerunStepRequest>;

/** A model for the step's role: in the catalogue, suitable for the role, usable by the user. */
export function checkModel(
  deps: EngineDeps,
  step: TPlannedStep,
  modelId: string,
  ctx: Pick<RunContext, "userKeys">,
): void {
  const { catalogue } = deps.models;
  const model = catalogue.getModel(modelId);
  if (!model) {
    throw new AppError(
      SESSION_ERROR_CODES.unknownModel,
      400,
      `There is no model "${modelId}". See GET /api/ai/models for the list.`,
      { model: modelId, field: "model" },
    );
  }
  if (!catalogue.getRole(step.role)?.suitableModels.includes(modelId)) {
    throw new AppError(
      SESSION_ERROR_CODES.modelNotSuitable,
      400,
      `${model.name} is not available for the ${AGENT_ROLE_NAMES[step.role]} role. See GET /api/models/by-role/${step.role}.`,
      { model: modelId, field: "model" },
    );
  }
  if (!deps.models.resolve(modelId, ctx.userKeys)) {
    throw new AppError(
      SESSION_ERROR_CODES.modelNotSuitable,
      400,
      `${model.name} cannot be used now: no provider key reaches it.`,
      { model: modelId, field: "model" },
    );
  }
}

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/rerun (decision 031): one agent step of
 * an ended run again, on another model (or temperature), with the same sub-task and the same
 * inputs, as a new numbered version of the step beside the first. Its hold is reserved here,
 * in the statement that opens its step row, so a budget or a balance that cannot cover it is
 * this request's 402 and two re-runs of one run at once are a 409. The call itself, and with
 * `review` the Critic's score of the drafts with the new version in them, run in the
 * background and stream as the run's usual events.
 */
export async function rerunStep(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  target: StepTarget,
  request: RerunRequest,
): Promise<TRerunStepResponse> {
  const ended = await loadEndedRun(
    deps,
    control,
    principal,
    target,
    "This run is still going. Wait for it to finish or stop it, then re-run a step.",
  );
  const { run } = ended;
  // One re-run of a run at a time in this process, from the check above until its work is
  // launched (busy from then on): two requests at once must not both pass while the first
  // stores its step (another instance's meets the step's unique version).
  if (claimed.has(run.id)) throw rerunInProgress();
  claimed.add(run.id);
  try {
    return await startRerun(deps, control, ended, target, request);
  } finally {
    claimed.delete(run.id);
  }
}

const claimed = new Set<string>();

async function startRerun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  ended: Awaited<ReturnType<typeof loadEndedRun>>,
  target: StepTarget,
  request: RerunRequest,
): Promise<TRerunStepResponse> {
  const { run, userKeys } = ended;
  const step = run.plan?.steps.find((s) => s.id === target.stepId && s.phase === "agent");
  if (!step) {
    throw new AppError(ERROR_CODES.notFound, 404, `This run has no agent step "${target.stepId}".`);
  }
  const first = run.steps.find(
    (s) => s.kind === "agent" && s.step_id === step.id && s.version === 1,
  );
  const asked = messageOf(ended);
  if (!first || !asked) {
    throw new AppError(
      RUN_ERROR_CODES.stepNotRun,
      409,
      "This step never ran, so there is nothing to re-run. Send the message again instead.",
    );
  }
  checkModel(deps, step, request.model, { userKeys });

  const version =
    Math.max(
      ...run.steps.filter((s) => s.kind === "agent" && s.step_id === step.id).map((s) => s.version),
    ) + 1;
  const ctx = endedRunContext(deps, ended, asked);
  const drafts = draftsOf(run.steps);
  const callId = randomUUID();
  const rerun = { version, of: first.id, temperature: request.temperature ?? null };
  const spec = {
    ...agentCall(ctx, step, request.model, drafts),
    failureNote: "The first version is kept.",
    rerun,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
  const opened = await openRerunCall(ctx, spec, callId);

  const critic = request.review ? run.plan?.steps.find((s) => s.phase === "review") : undefined;
  launchRerunWork(control, ctx, () =>
    executeRerun(ctx, { spec: opened, drafts, critic, rerun, callId }),
  );
  return { run_id: run.id, step_id: step.id, call_id: callId, version };
}

interface RerunJob {
  spec: CallSpec<undefined>;
  drafts: Map<string, Draft>;
  critic: TPlannedStep | undefined;
  rerun: { version: number; temperature: number | null };
  callId: string;
}

/**
 * The re-run's calls: the step on its new model, then (when asked and the run has a Critic)
 * the review of the drafts with the new version in place of the first. A stop or a budget
 * that cannot cover the review ends it; the run itself is never touched.
 */
async function executeRerun(ctx: RunContext, job: RerunJob): Promise<void> {
  const outcome = await callModel(ctx, job.spec);
  if (!outcome.ok || !job.critic) return;
  const stepId = job.spec.stepId as string;
  const reviewed = [...job.drafts.values()]
    .filter((d) => d.ok || d.stepId === stepId)
    .map((d) => (d.stepId === stepId ? { ...d, text: outcome.result.text, ok: true } : d));
  const scored = await scoreDrafts(ctx, job.critic, reviewed, {
    version: job.rerun.version,
    of: job.callId,
    temperature: null,
  });
  if (scored) await storeRerunScore(ctx.deps.db, job.callId, scored.score);
}

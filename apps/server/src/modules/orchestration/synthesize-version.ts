import { randomUUID } from "node:crypto";
import {
  ERROR_CODES,
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TSynthesizeVersionResponse,
} from "@cohort/contracts";
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
  runNotFound,
} from "./ended-run-work";
import type { EngineDeps } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import type { StepTarget } from "./step-params";
import { citedByDrafts, synthesisCall } from "./synthesize-answer";

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/versions/{version}/synthesize (decision
 * 031): the coordinator writes the run's final answer again, from the drafts the run's own
 * answer used with this re-run version in place of the step's, and the Critic's review of
 * that set when the version has one. The new answer is a synthesis step row linked to the
 * re-run (its version, `rerun_of` = the re-run's call); the run's answer, total and score
 * stay. Checks, hold and background work as for a step's re-run.
 */
export async function synthesizeVersion(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  target: StepTarget & { version: string },
): Promise<TSynthesizeVersionResponse> {
  const ended = await loadEndedRun(
    deps,
    control,
    principal,
    target,
    "This run is still going. Wait for it to finish, then re-write its answer.",
  );
  const { run, userKeys } = ended;
  const step = run.plan?.steps.find((s) => s.id === target.stepId && s.phase === "agent");
  const number = /^\d{1,6}$/.test(target.version) ? Number(target.version) : 0;
  const rerun = step
    ? run.steps.find(
        (s) =>
          s.kind === "agent" &&
          s.step_id === step.id &&
          s.version === number &&
          s.rerun_of !== null,
      )
    : undefined;
  if (!step || !rerun) {
    throw new AppError(
      ERROR_CODES.notFound,
      404,
      `This run has no re-run version ${target.version} of step "${target.stepId}".`,
    );
  }
  if (run.status !== "completed" || run.result_message_id === null) {
    throw new AppError(
      RUN_ERROR_CODES.noAnswer,
      409,
      "This run ended without an answer, so there is no answer to re-write. Send the message again instead.",
    );
  }
  if (rerun.status !== "completed") {
    throw new AppError(
      RUN_ERROR_CODES.versionNotCompleted,
      409,
      `Version ${rerun.version} of this step did not finish, so the answer cannot be written from it. Re-run the step again.`,
      { status: rerun.status },
    );
  }
  const asked = messageOf(ended);
  if (!asked) throw runNotFound();
  const coordinator = deps.models.catalogue.getModel(run.coordinator_model);
  if (!coordinator || !deps.models.resolve(run.coordinator_model, userKeys)) {
    throw new AppError(
      SESSION_ERROR_CODES.modelNotSuitable,
      400,
      `${coordinator?.name ?? run.coordinator_model}, the run's coordinator, cannot be used now: no provider key reaches it.`,
      { model: run.coordinator_model },
    );
  }

  const ctx = endedRunContext(deps, ended, asked);
  const drafts = draftsOf(run.steps);
  drafts.set(step.id, { stepId: step.id, role: step.role, text: rerun.output, ok: true });
  const usable = (run.plan?.steps ?? []).flatMap((s) => {
    const d = drafts.get(s.id);
    return d?.ok ? [d] : [];
  });
  // The Critic's review of this very set of drafts, when the version was scored; the run's
  // own review judged another draft, so it is not used.
  const review = run.steps.find(
    (s) => s.kind === "critic" && s.rerun_of === rerun.id && s.status === "completed",
  );
  const callId = randomUUID();
  const spec: CallSpec<undefined> = {
    ...synthesisCall(
      ctx,
      usable,
      review?.output ?? null,
      citedByDrafts(ctx.material.passages, usable),
    ),
    failureNote: "The run's answer is kept.",
    rerun: { version: rerun.version, of: rerun.id, temperature: null, answerFor: step.id },
  };
  const opened = await openRerunCall(ctx, spec, callId);

  // The coordinator's call; a stop ends it.
  launchRerunWork(control, ctx, async () => {
    await callModel(ctx, opened);
  });
  return {
    run_id: run.id,
    step_id: step.id,
    version: rerun.version,
    call_id: callId,
    rerun_call_id: rerun.id,
  };
}

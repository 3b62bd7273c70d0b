import {
  AGENT_ROLE_NAMES,
  STEERING_ERROR_CODES,
  type TPlanEditStep,
  type TPlannedStep,
  type TRunPlanView,
  ZPlanEditStep,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { ModelGateway } from "../models/gateway";
import type { UserProviderKeys } from "../models/providers";

type EditStep = ReturnType<typeof ZPlanEditStep.parse>;

function invalid(problems: string[]): AppError {
  return new AppError(
    STEERING_ERROR_CODES.invalidPlan,
    400,
    `This plan cannot run: ${problems.join("; ")}.`,
    { problems },
  );
}

/**
 * The plan a person edited before starting it (decision 069), checked as the coordinator's
 * plan is: unique step ids, dependencies only on earlier steps (which rules out cycles), at
 * least one step for a role other than the Critic, at most one Critic step (it reviews every
 * draft), and a model that can answer in this session for each step. Anything else is a 400
 * that names every problem and changes nothing.
 */
export function applyPlanEdits(
  models: ModelGateway,
  userKeys: UserProviderKeys,
  proposed: TRunPlanView,
  edits: readonly TPlanEditStep[],
): TRunPlanView {
  const steps: EditStep[] = edits.map((s) => ZPlanEditStep.parse(s));
  const problems: string[] = [];
  const seen = new Set<string>();
  steps.forEach((step, index) => {
    const n = index + 1;
    if (seen.has(step.id)) problems.push(`step ${n} repeats the id "${step.id}"`);
    if (step.role !== "critic") {
      for (const dep of step.depends_on) {
        if (!seen.has(dep))
          problems.push(`step ${n} depends on "${dep}", which is not an earlier step`);
      }
    }
    seen.add(step.id);
    const resolved = models.resolve(step.model, userKeys);
    if (!resolved) problems.push(`step ${n}: the model "${step.model}" is not available`);
  });
  const critics = steps.filter((s) => s.role === "critic");
  if (critics.length > 1) problems.push("a plan has at most one Critic step");
  if (steps.every((s) => s.role === "critic")) {
    problems.push("the plan needs at least one step for a role other than the Critic");
  }
  if (problems.length > 0) throw invalid(problems);

  const before = new Map(proposed.steps.map((s) => [s.id, s]));
  const allDocuments = proposed.documents?.map((d) => d.id);
  const view = (step: EditStep, phase: TPlannedStep["phase"], dependsOn: string[]) => {
    const resolved = models.resolve(step.model, userKeys);
    const old = before.get(step.id);
    const planned: TPlannedStep = {
      id: step.id,
      role: step.role,
      task: step.task,
      depends_on: dependsOn,
      phase,
      model: step.model,
      model_name: resolved?.model.name ?? step.model,
      provider: resolved?.targets[0]?.provider ?? resolved?.provider ?? "unknown",
      simulated: resolved?.simulated ?? false,
    };
    if (phase === "agent") {
      const documents = old?.document_ids ?? allDocuments;
      if (documents) planned.document_ids = documents;
    } else if (allDocuments) {
      planned.document_ids = [];
    }
    if (step.temperature !== undefined && step.temperature !== null) {
      planned.temperature = step.temperature;
    }
    if (step.instructions) planned.instructions = step.instructions;
    if (step.tools) planned.tools = step.tools;
    return planned;
  };
  const makers = steps.filter((s) => s.role !== "critic");
  const out: TPlannedStep[] = makers.map((s) => view(s, "agent", s.depends_on));
  const [critic] = critics;
  if (critic)
    out.push(
      view(
        critic,
        "review",
        makers.map((s) => s.id),
      ),
    );
  return { ...proposed, steps: out };
}

/** True when the started plan differs from the coordinator's (for the event and the note). */
export function planChanged(proposed: TRunPlanView, started: TRunPlanView): boolean {
  const key = (plan: TRunPlanView) =>
    JSON.stringify(
      plan.steps.map((s) => [
        s.id,
        s.role,
        s.task,
        s.depends_on,
        s.model,
        s.temperature ?? null,
        s.instructions ?? null,
        s.tools ?? null,
      ]),
    );
  return key(proposed) !== key(started);
}

/** A role's display name, for messages. */
export const roleName = (role: TPlannedStep["role"]) => AGENT_ROLE_NAMES[role];

import {
  AGENT_ROLE_NAMES,
  AGENT_ROLES,
  addHundredths,
  type Hundredths,
  MODEL_ERROR_CODES,
  NO_CREDITS,
  RUN_ERROR_CODES,
  type TAgentRole,
  type TPlannedStep,
  type TRunPlan,
  type TRunPlanView,
  ZAgentRoleId,
  ZRunPlan,
} from "@cohort/contracts";
import { z } from "zod";
import { AppError } from "../../platform/errors";
import { isUserKeyRefusal, withTryAgain } from "../models/call-failures";
import { type CallOutcome, callModel } from "./call-model";
import { openPlanPreview } from "./plan-preview";
import { mergedCriticTools, planToolOffer, toolsBlock, withStepTools } from "./plan-tools";
import {
  messagesFor,
  PLAN_MAX_OUTPUT_TOKENS,
  type PlanDocument,
  planContent,
  planRepair,
  planSystem,
} from "./prompts";
import { failed, haltRun, type RunContext, type RunHalted } from "./run-context";

/**
 * The shape asked of the model. The plan's rules (step count, backward dependencies, the
 * chosen roles) are checked here rather than by the provider, so a broken plan comes back
 * with the exact rule it broke for the repair retry.
 */
const ZRunPlanDraft = z.object({
  rationale: z.string(),
  steps: z.array(
    z.object({
      id: z.string(),
      role: ZAgentRoleId,
      task: z.string(),
      dependsOn: z.array(z.string()),
    }),
  ),
});

/** With attached documents, each step also names the ones it needs ("d1", … refs). */
const ZRunPlanDraftWithDocuments = ZRunPlanDraft.extend({
  steps: z.array(ZRunPlanDraft.shape.steps.element.extend({ documents: z.array(z.string()) })),
});
type PlanDraft = {
  rationale: string;
  steps: (z.infer<typeof ZRunPlanDraft>["steps"][number] & {
    documents?: string[];
    tools?: string[];
  })[];
};

/** With tools some role may use, each step also names the ones it expects (decision 067). */
function withToolsField(schema: typeof ZRunPlanDraft | typeof ZRunPlanDraftWithDocuments) {
  return z.object({
    rationale: z.string(),
    // Required in the JSON schema (providers' strict modes want every field), yet a model
    // that leaves it out (or says null) names no tools: its lane gets all its role's tools.
    steps: z.array(
      schema.shape.steps.element.extend({
        tools: z.preprocess((value) => value ?? null, z.array(z.string()).nullable()),
      }),
    ),
  });
}

/** A step whose `tools` is null named none: the field goes, as if the schema had not asked. */
function withoutNullTools(draft: PlanDraft): PlanDraft {
  return {
    ...draft,
    steps: draft.steps.map(({ tools, ...step }) => (tools ? { ...step, tools } : step)),
  };
}

export interface PlanOutcome {
  plan: TRunPlanView;
  /** What planning cost, repair attempt included. */
  planCredits: Hundredths;
  repaired: boolean;
}

/** The roles the user chose in manual selection (the Critic reviews when chosen). */
export function chosenRoles(ctx: RunContext): TAgentRole[] | null {
  if (ctx.mode !== "manual") return null;
  return AGENT_ROLES.filter((role) => ctx.preferences[role]?.enabled === true);
}

function problemsOf(plan: TRunPlan | z.infer<typeof ZRunPlanDraft>, allowed: TAgentRole[] | null) {
  const problems: string[] = [];
  const parsed = ZRunPlan.safeParse(plan);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(`${issue.path.join(".") || "(plan)"}: ${issue.message}`);
    }
  }
  if (allowed) {
    for (const step of plan.steps) {
      if (!allowed.includes(step.role)) {
        problems.push(
          `step ${step.id} uses the ${AGENT_ROLE_NAMES[step.role]}, who is not on the team (${allowed.map((r) => AGENT_ROLE_NAMES[r]).join(", ")})`,
        );
      }
    }
  }
  if (plan.steps.length > 0 && plan.steps.every((s) => s.role === "critic")) {
    problems.push("the plan needs at least one step for a role other than the Critic");
  }
  return problems;
}

/**
 * Planning: the coordinator returns a structured plan; an answer that is not valid JSON for
 * the schema or breaks a rule gets one repair retry with the problem fed back. Then the plan
 * is fitted to the run: chosen roles the coordinator left out are added (manual), the
 * Critic's steps become one review pass, and each step gets its role's model.
 */
export async function planRun(ctx: RunContext): Promise<PlanOutcome> {
  const allowed = chosenRoles(ctx);
  const system = planSystem(allowed);
  const { documents, memories } = ctx.material;
  const offer = await planToolOffer(ctx, allowed);
  const content = [
    planContent(ctx.message.content, documents, memories),
    ...(offer.size > 0 ? [toolsBlock(offer)] : []),
  ].join("\n\n");
  const base = documents.length > 0 ? ZRunPlanDraftWithDocuments : ZRunPlanDraft;
  const schema = offer.size > 0 ? withToolsField(base) : base;
  const messages = messagesFor(ctx, ctx.coordinatorModel, content, {
    system,
    maxOutputTokens: PLAN_MAX_OUTPUT_TOKENS,
    history: true,
  });
  let planCredits = NO_CREDITS;
  let problem: string | null = null;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const conversation =
      problem === null
        ? messages
        : [...messages, { role: "user" as const, content: planRepair(problem) }];
    // The first attempt runs on the hold reserved when the message was accepted.
    const reserved = ctx.planHold;
    ctx.planHold = null;
    // The plan streams into the view as it is written (decision 079); its events are all
    // out before the call's outcome is acted on, so `run.plan` (or the run's end) follows them.
    const preview = openPlanPreview(ctx);
    let outcome: CallOutcome<PlanDraft>;
    try {
      outcome = await callModel(ctx, {
        kind: "plan",
        stepId: null,
        role: null,
        modelId: ctx.coordinatorModel,
        messages: conversation,
        system,
        maxOutputTokens: PLAN_MAX_OUTPUT_TOKENS,
        schema: schema as z.ZodType<PlanDraft>,
        reserved,
        onCallId: preview.callStarted,
        onPartial: preview.update,
      });
    } finally {
      await preview.close();
    }
    if (!outcome.ok) {
      // A refused user key is the run's error as it is: it names the key and links Settings.
      if (isUserKeyRefusal(outcome.failure.code)) {
        throw haltRun(ctx, failed(outcome.failure.code, outcome.failure.message));
      }
      if (outcome.failure.code !== MODEL_ERROR_CODES.invalidOutput) {
        throw planFailed(ctx, outcome.failure.message);
      }
      problem = "it was not valid JSON for the run_plan schema.";
      continue;
    }
    planCredits = addHundredths(planCredits, outcome.charged);
    const draft = withoutNullTools(outcome.object as PlanDraft);
    const problems = problemsOf(draft, allowed);
    if (problems.length === 0) {
      const named = new Map(draft.steps.map((step) => [step.id, step.documents ?? []]));
      const fitted = withMaterial(ctx, fitPlan(ctx, ZRunPlan.parse(draft), allowed), named);
      const tools = new Map(draft.steps.map((step) => [step.id, step.tools]));
      const critic = fitted.steps.find((s) => s.phase === "review");
      if (critic) tools.set(critic.id, mergedCriticTools(draft.steps));
      return {
        plan: withStepTools(fitted, offer, tools),
        planCredits,
        repaired: attempt > 1,
      };
    }
    problem = problems.join("; ");
    ctx.deps.log.warn(
      { runId: ctx.runId, attempt, problem },
      "the coordinator's plan broke a rule",
    );
  }
  throw planFailed(ctx, `Its plan was still unusable after a repair attempt (${problem}).`);
}

function planFailed(ctx: RunContext, reason: string): RunHalted {
  const name =
    ctx.deps.models.catalogue.getModel(ctx.coordinatorModel)?.name ?? ctx.coordinatorModel;
  return haltRun(
    ctx,
    failed(
      RUN_ERROR_CODES.planFailed,
      withTryAgain(`The coordinator (${name}) could not plan this task. ${reason}`),
    ),
  );
}

/** The model a role runs on in this session: the user's choice, else the role's default. */
export function modelForRole(ctx: RunContext, role: TAgentRole): string {
  const chosen = ctx.preferences[role]?.model;
  if (chosen) return chosen;
  const fallback = ctx.deps.models.catalogue.getRole(role)?.defaultModel;
  if (!fallback) throw new AppError("unknown_role", 500, `No default model for ${role}.`);
  return fallback;
}

function modelRef(ctx: RunContext, modelId: string) {
  const resolved = ctx.deps.models.resolve(modelId, ctx.userKeys);
  return {
    model: modelId,
    model_name: resolved?.model.name ?? modelId,
    provider: resolved?.targets[0]?.provider ?? resolved?.provider ?? "unknown",
    simulated: resolved?.simulated ?? false,
  };
}

function fitPlan(ctx: RunContext, plan: TRunPlan, allowed: TAgentRole[] | null): TRunPlanView {
  const notes: string[] = [];
  const steps = [...plan.steps];
  if (allowed) {
    for (const role of allowed) {
      if (steps.some((s) => s.role === role)) continue;
      const makers = steps.filter((s) => s.role !== "critic").map((s) => s.id);
      const id = uniqueId(steps, role);
      steps.push({
        id,
        role,
        task:
          role === "critic"
            ? "Review the drafts against the request; score them out of 10."
            : `Contribute the ${AGENT_ROLE_NAMES[role]}'s part of the request.`,
        dependsOn: role === "critic" ? makers : [],
      });
      notes.push(
        `Added a ${AGENT_ROLE_NAMES[role]} step: you chose this role and the plan left it out.`,
      );
    }
  }
  const critics = steps.filter((s) => s.role === "critic");
  const criticIds = new Set(critics.map((s) => s.id));
  if (critics.length > 1) {
    notes.push(`Merged ${critics.length} Critic steps into one review of all drafts.`);
  }
  const planned: TPlannedStep[] = steps
    .filter((s) => s.role !== "critic")
    .map((s) => ({
      id: s.id,
      role: s.role,
      task: s.task,
      depends_on: s.dependsOn.filter((d) => !criticIds.has(d)),
      phase: "agent" as const,
      ...modelRef(ctx, modelForRole(ctx, s.role)),
    }));
  const [firstCritic] = critics;
  if (firstCritic) {
    planned.push({
      id: firstCritic.id,
      role: "critic",
      task: critics.map((c) => c.task).join("\n"),
      depends_on: planned.map((s) => s.id),
      phase: "review",
      ...modelRef(ctx, modelForRole(ctx, "critic")),
    });
  }
  return {
    mode: ctx.mode,
    rationale: plan.rationale,
    steps: planned,
    notes,
    coordinator: modelRef(ctx, ctx.coordinatorModel),
  };
}

/**
 * The plan with what the run works from: the attached documents each sub-task searches (the
 * coordinator names them by ref; unknown refs are dropped, and a step the engine added gets
 * them all) and the memories put into its context. The Critic reviews drafts and needs none.
 */
function withMaterial(
  ctx: RunContext,
  plan: TRunPlanView,
  named: ReadonlyMap<string, readonly string[]>,
): TRunPlanView {
  const { documents, memories } = ctx.material;
  const withMemories = memories.length > 0 ? { ...plan, memories } : plan;
  if (documents.length === 0) return withMemories;
  const byRef = new Map<string, PlanDocument>(documents.map((d) => [d.ref.toLowerCase(), d]));
  return {
    ...withMemories,
    documents: documents.map((d) => ({ id: d.id, name: d.name })),
    steps: plan.steps.map((step) => {
      if (step.phase === "review") return { ...step, document_ids: [] };
      const refs = named.get(step.id);
      const ids = refs
        ? refs.flatMap((ref) => {
            const found = byRef.get(ref.trim().toLowerCase());
            return found ? [found.id] : [];
          })
        : documents.map((d) => d.id);
      return { ...step, document_ids: [...new Set(ids)] };
    }),
  };
}

function uniqueId(steps: readonly { id: string }[], role: TAgentRole): string {
  let n = steps.length + 1;
  while (steps.some((s) => s.id === `${role}-${n}`)) n++;
  return `${role}-${n}`;
}

import {
  AGENT_ROLE_NAMES,
  CRITIC_SCORE_BAR,
  MAX_REVISIONS,
  type TPlannedStep,
  type TRunPlanView,
} from "@cohort/contracts";
import { type CallSpec, callModel } from "./call-model";
import { checkDrafts, type DraftEvidence, evidenceSection } from "./check-drafts";
import { draftsToRevise, parseCriticVerdict } from "./parse-critic-verdict";
import { stepLaneTools } from "./plan-tools";
import {
  AGENT_MAX_OUTPUT_TOKENS,
  CRITIC_MAX_OUTPUT_TOKENS,
  criticContent,
  criticSystem,
  messagesFor,
  revisionContent,
  roleInstructions,
} from "./prompts";
import type { StoredReview } from "./resume-point";
import { type Draft, offerTools } from "./run-agents";
import { inParallel, type RunContext } from "./run-context";

export interface Review {
  text: string;
  score: number | null;
}

/**
 * The review phase: the Critic scores the drafts against the rubric; below the bar, one
 * revision round (no second review, so the round is bounded) rewrites the weakest drafts in
 * parallel, each by its own role and model. The score is kept on the run. A Critic that
 * fails leaves the drafts as they are; a revision that fails keeps its first draft.
 */
export async function reviewDrafts(
  ctx: RunContext,
  plan: TRunPlanView,
  drafts: Map<string, Draft>,
  stored?: StoredReview,
): Promise<Review | null> {
  const critic = plan.steps.find((s) => s.phase === "review");
  const reviewed = [...drafts.values()].filter((d) => d.ok);
  if (!critic || reviewed.length === 0) return null;
  // A resumed run (decision 047) keeps the Critic's stored verdict and completed revisions.
  const scored = stored
    ? storedVerdict(ctx, stored, reviewed)
    : await scoreDrafts(ctx, critic, reviewed);
  if (!scored) return null;
  const { text, revise } = scored;

  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const revisedBefore = stored?.revised ?? new Map<string, string>();
  for (const [stepId, revisedText] of revisedBefore) {
    const draft = drafts.get(stepId);
    if (draft) drafts.set(stepId, { ...draft, text: revisedText });
  }
  await inParallel(
    ctx,
    revise
      .filter((stepId) => !revisedBefore.has(stepId))
      .map((stepId) => async () => {
        const step = byId.get(stepId) as TPlannedStep;
        const draft = drafts.get(stepId) as Draft;
        const passages = ctx.material.stepPassages.get(stepId) ?? [];
        const call: CallSpec<undefined> = {
          kind: "revision",
          stepId,
          role: step.role,
          modelId: step.model,
          task: step.task,
          messages: messagesFor(
            ctx,
            step.model,
            revisionContent(
              ctx.message.content,
              step.task,
              draft,
              text,
              passages,
              roleInstructions(ctx.preferences, step.role),
            ),
            { system: "", maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS, history: true },
          ),
          maxOutputTokens: AGENT_MAX_OUTPUT_TOKENS,
          failureNote: `The ${AGENT_ROLE_NAMES[step.role]}'s first draft is kept.`,
          passages,
        };
        // A revision redoes its step's work: it is offered the step's tools (decision 067).
        offerTools(call, await stepLaneTools(ctx, step));
        const revised = await callModel(ctx, call);
        if (revised.ok) drafts.set(stepId, { ...draft, text: revised.result.text });
      }),
  );
  return { text, score: scored.score };
}

/** The stored Critic's verdict again: its score is the run's, no event is sent twice. */
function storedVerdict(
  ctx: RunContext,
  stored: StoredReview,
  reviewed: readonly Draft[],
): { text: string; score: number | null; revise: string[] } {
  const stepIds = reviewed.map((d) => d.stepId);
  const verdict = parseCriticVerdict(stored.criticText, stepIds);
  ctx.criticScore = verdict.score;
  return {
    text: stored.criticText,
    score: verdict.score,
    revise: draftsToRevise(verdict, stepIds, CRITIC_SCORE_BAR, MAX_REVISIONS),
  };
}

/**
 * A run resumed after its review (decision 047): the stored verdict's score and the completed
 * revisions, applied to the drafts, without a call.
 */
export function applyStoredReview(
  ctx: RunContext,
  drafts: Map<string, Draft>,
  stored: StoredReview,
): Review {
  const reviewed = [...drafts.values()].filter((d) => d.ok);
  const { text, score } = storedVerdict(ctx, stored, reviewed);
  for (const [stepId, revisedText] of stored.revised) {
    const draft = drafts.get(stepId);
    if (draft) drafts.set(stepId, { ...draft, text: revisedText });
  }
  return { text, score };
}

/**
 * The Critic's call over `reviewed` and its verdict event. For a re-run (decision 031),
 * `rerun` names the re-run call whose draft is among them: its score is the verdict's and no
 * revision follows; the run's own score is left as it is.
 */
export async function scoreDrafts(
  ctx: RunContext,
  critic: TPlannedStep,
  reviewed: readonly Draft[],
  rerun?: NonNullable<CallSpec<undefined>["rerun"]>,
): Promise<{ text: string; score: number | null; revise: string[] } | null> {
  const stepIds = reviewed.map((d) => d.stepId);
  const system = criticSystem(stepIds);
  const evidence = await runChecks(ctx, reviewed);
  const call: CallSpec<undefined> = {
    kind: "critic",
    stepId: critic.id,
    role: "critic",
    modelId: critic.model,
    task: critic.task,
    system,
    messages: messagesFor(
      ctx,
      critic.model,
      criticContent(
        ctx.message.content,
        critic.task,
        reviewed,
        roleInstructions(ctx.preferences, "critic"),
      ) + (evidence ? `\n\n${evidenceSection(evidence)}` : ""),
      {
        system,
        maxOutputTokens: CRITIC_MAX_OUTPUT_TOKENS,
        history: false,
      },
    ),
    maxOutputTokens: CRITIC_MAX_OUTPUT_TOKENS,
    failureNote: rerun ? "The new version stays unscored." : "The run continues without a review.",
    ...(rerun ? { rerun } : {}),
  };
  // The Critic may check the drafts with the reading tools its step names (decision 067); a
  // re-run's review scores one new version by reading, as before.
  if (!rerun) offerTools(call, await stepLaneTools(ctx, critic));
  const outcome = await callModel(ctx, call);
  if (!outcome.ok) return null;
  const { text } = outcome.result;

  const verdict = parseCriticVerdict(text, stepIds);
  const revise = rerun ? [] : draftsToRevise(verdict, stepIds, CRITIC_SCORE_BAR, MAX_REVISIONS);
  // Stored with the run's end, in the same write as its status.
  if (!rerun) ctx.criticScore = verdict.score;
  void ctx.events.append({
    type: "critic.verdict",
    call_id: outcome.callId,
    score: verdict.score,
    bar: CRITIC_SCORE_BAR,
    verdict:
      verdict.score === null
        ? "unscored"
        : verdict.score >= CRITIC_SCORE_BAR
          ? "approve"
          : "revise",
    draft_scores: verdict.draftScores,
    revise_step_ids: revise,
    ...(rerun ? { rerun_call_id: rerun.of } : {}),
    evidence: evidence ? "ran" : "opinion",
    ...(evidence ? { checks: evidence.checks } : {}),
  });
  // The revision round reads the failures beside the Critic's words.
  const withEvidence = evidence ? `${text}\n\n${evidenceSection(evidence)}` : text;
  return { text: withEvidence, score: verdict.score, revise };
}

/**
 * The drafts' code and tests, run before the Critic scores (decision 062); null when the
 * engine has no code runner, no draft has code with tests, or running them failed (the
 * Critic then scores by reading, as before).
 */
async function runChecks(
  ctx: RunContext,
  reviewed: readonly Draft[],
): Promise<DraftEvidence | null> {
  const port = ctx.deps.code;
  if (!port) return null;
  try {
    return await checkDrafts(port, ctx.runId, reviewed, ctx.controller.signal);
  } catch (e) {
    ctx.deps.log.warn({ err: e, runId: ctx.runId }, "running the drafts' checks failed");
    return null;
  }
}

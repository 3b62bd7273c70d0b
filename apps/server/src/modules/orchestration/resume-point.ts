import {
  hundredthsOf,
  type TProviderId,
  type TRun,
  type TRunPlanView,
  type TRunStatus,
  type TRunStep,
} from "@cohort/contracts";
import type { Draft } from "./run-agents";
import type { FinalAnswer } from "./synthesize-answer";

/** The Critic's stored review and the revisions it asked for that completed. */
export interface StoredReview {
  criticText: string;
  /** Revised draft text by plan step id. */
  revised: Map<string, string>;
}

/**
 * Where an interrupted run goes on from (decision 047), read from its stored calls: every
 * call that completed (or failed for good) is kept as it is; a call that was cut off is made
 * again, on a new hold. The run's phase decides which calls come next.
 */
export interface ResumePoint {
  from: TRunStatus;
  plan: TRunPlanView | null;
  /** Agent calls that ended, by plan step id (a failed one stays failed). */
  drafts: Map<string, Draft>;
  review?: StoredReview;
  /** The synthesis had completed before the run's end was stored: its answer is the run's. */
  answer?: FinalAnswer;
  /** How many stored calls are kept. */
  reused: number;
}

const ended = (s: TRunStep) => s.status === "completed" || s.status === "failed";

export function resumePointOf(run: TRun): ResumePoint {
  const own = run.steps.filter((s) => s.rerun_of === null);
  const drafts = new Map<string, Draft>();
  let reused = 0;
  for (const step of own) {
    if (step.kind !== "agent" || step.step_id === null || step.role === null || !ended(step)) {
      continue;
    }
    drafts.set(step.step_id, {
      stepId: step.step_id,
      role: step.role,
      text: step.output,
      ok: step.status === "completed",
      ...(step.error ? { error: step.error } : {}),
    });
    reused += 1;
  }
  if (own.some((s) => s.kind === "plan" && s.status === "completed")) reused += 1;
  const critic = own.find((s) => s.kind === "critic" && s.status === "completed");
  let review: StoredReview | undefined;
  if (critic) {
    const revised = new Map<string, string>();
    for (const step of own) {
      if (step.kind === "revision" && step.step_id && step.status === "completed") {
        revised.set(step.step_id, step.output);
        reused += 1;
      }
    }
    review = { criticText: critic.output, revised };
    reused += 1;
  }
  const synthesis = own.find((s) => s.kind === "synthesis" && s.status === "completed");
  return {
    from: run.status,
    plan: run.plan,
    drafts,
    ...(review ? { review } : {}),
    ...(synthesis ? { answer: storedAnswer(synthesis) } : {}),
    reused: reused + (synthesis ? 1 : 0),
  };
}

/** A completed synthesis call as the run's end needs it (its charge is booked already). */
function storedAnswer(step: TRunStep): FinalAnswer {
  const provider = (step.provider ?? "simulator") as TProviderId | "simulator";
  return {
    callId: step.id,
    charged: hundredthsOf(step.credits),
    citations: [],
    result: {
      text: step.output,
      usage: { inputTokens: step.input_tokens, outputTokens: step.output_tokens },
      usageEstimated: false,
      latencyMs: step.latency_ms ?? 0,
      ttftMs: step.ttft_ms,
      modelId: step.model,
      modelName: step.model_name,
      provider,
      providerModel: step.model,
      simulated: step.simulated ?? false,
      keySource: step.simulated ? "simulator" : "hosted",
      credits: hundredthsOf(step.credits),
      finishReason: "stop",
      failedAttempts: 0,
    },
  };
}

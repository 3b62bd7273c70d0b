import { z } from "zod";
import { ZCodeChecks } from "./code-runs";
import { ZAgentRoleId } from "./models";
import { ZRunFork } from "./run-fork";
import { ZChatMessage, ZSession } from "./sessions";
import { ZCreditLimitKind } from "./spending";
import {
  toolEventIds,
  ZToolApprovalDecision,
  ZToolApprovalReason,
  ZToolFile,
  ZToolRisk,
  ZToolSource,
  ZToolSourceView,
} from "./tools";

// ---------------------------------------------------------------------------------------
// Runs (docs/architecture.md, "A run's path"): what one user message starts in a session.
// ---------------------------------------------------------------------------------------

export const RUN_STATUSES = [
  "queued",
  "planning",
  "running",
  "reviewing",
  "synthesizing",
  "completed",
  "failed",
  "cancelled",
  /** Waiting for a person to review (edit) and start the plan (decision 069). */
  "planned",
] as const;
export const ZRunStatus = z.enum(RUN_STATUSES);
export type TRunStatus = z.infer<typeof ZRunStatus>;

/** A run's status as the screen and the exports say it. */
export const RUN_STATUS_LABELS: Record<TRunStatus, string> = {
  queued: "Starting",
  planning: "Planning",
  running: "Agents working",
  reviewing: "Reviewing",
  synthesizing: "Writing the answer",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Stopped",
  planned: "Plan ready for review",
};

/** A run in one of these is going: a session has at most one. */
export const ACTIVE_RUN_STATUSES = [
  "queued",
  "planning",
  "running",
  "reviewing",
  "synthesizing",
  "planned",
] as const satisfies readonly TRunStatus[];

export function isRunActive(status: TRunStatus): boolean {
  return (ACTIVE_RUN_STATUSES as readonly TRunStatus[]).includes(status);
}

/**
 * The allowed moves of a run (docs/decisions/014-run-lifecycle-and-money.md): forward through
 * its phases, review only when the plan has a Critic, and from any active status to its end.
 * Ended runs stay ended. The engine's `advance()` is the only writer of a run's status.
 */
export const RUN_STATUS_TRANSITIONS: Readonly<Record<TRunStatus, readonly TRunStatus[]>> = {
  queued: ["planning", "failed", "cancelled"],
  planning: ["running", "planned", "failed", "cancelled"],
  planned: ["running", "failed", "cancelled"],
  running: ["reviewing", "synthesizing", "failed", "cancelled"],
  reviewing: ["synthesizing", "failed", "cancelled"],
  synthesizing: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canAdvanceRun(from: TRunStatus, to: TRunStatus): boolean {
  return RUN_STATUS_TRANSITIONS[from].includes(to);
}

export const ZRunCancelReason = z.enum(["user", "shutdown"]);
export type TRunCancelReason = z.infer<typeof ZRunCancelReason>;

/** How a run ends: exactly one of these, stored with its status and sent as its last event. */
export type TRunOutcome =
  | { status: "completed" }
  | { status: "failed"; code: string; message: string; money?: TRunMoneyFailure }
  | { status: "cancelled"; reason: TRunCancelReason };

/** A run that failed for money: which limit, what is left of it, what a minimal step needs. */
export interface TRunMoneyFailure {
  limit: z.infer<typeof ZCreditLimitKind>;
  available: number;
  required: number;
}

/** An end that cuts a run short (a failure or a stop), as opposed to finishing it. */
export type TRunHalt = Exclude<TRunOutcome, { status: "completed" }>;

/** One model call of a run. */
export const RUN_STEP_KINDS = ["plan", "agent", "critic", "revision", "synthesis"] as const;
export const ZRunStepKind = z.enum(RUN_STEP_KINDS);
export type TRunStepKind = z.infer<typeof ZRunStepKind>;

export const RUN_STEP_STATUSES = ["running", "completed", "failed", "stopped"] as const;
export const ZRunStepStatus = z.enum(RUN_STEP_STATUSES);
export type TRunStepStatus = z.infer<typeof ZRunStepStatus>;
export const RUN_STEP_STATUS_LABELS: Record<TRunStepStatus, string> = {
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  stopped: "Stopped",
};

/** The Critic's bar: a lower score starts the one revision round. */
export const CRITIC_SCORE_BAR = 7;
/** The most drafts one revision round rewrites (the weakest first). */
export const MAX_REVISIONS = 3;
/** The longest message a user can send to a session. */
export const CHAT_MESSAGE_MAX = 20_000;

export const ZRunMode = z.enum(["automatic", "manual"]);
export type TRunMode = z.infer<typeof ZRunMode>;

export const ZRunError = z.object({ code: z.string(), message: z.string() });
export type TRunError = z.infer<typeof ZRunError>;

/** Where a call goes: the model, and the provider answering it (or the simulator). */
const modelRef = {
  model: z.string(),
  model_name: z.string(),
  provider: z.string(),
  simulated: z.boolean(),
};

// ---------------------------------------------------------------------------------------
// Documents and memories in runs (docs/decisions/037-documents-and-memories-in-runs.md).
// ---------------------------------------------------------------------------------------

/**
 * A passage a run gave its agents, numbered once per run: the same chunk keeps its number
 * in every step that gets it, and `[n]` in any step's output or the final answer means it.
 */
export const ZRunPassage = z.object({
  /** The citation number, from 1. */
  n: z.number().int().min(1),
  chunk_id: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  page: z.number().int().nullable(),
  section: z.string().nullable(),
  /** The passage's text as the agents got it (a snippet of the chunk when long). */
  text: z.string(),
  /**
   * A page or search result a tool found (decision 067): its address. Such a source has no
   * document (`document_id` is empty, `document_name` is its title) and shares the run's
   * numbering with the documents' passages.
   */
  url: z.string().optional(),
});
export type TRunPassage = z.infer<typeof ZRunPassage>;

/** A document a plan names: the session's attached documents, as the run saw them. */
export const ZRunDocumentRef = z.object({ id: z.string(), name: z.string() });
export type TRunDocumentRef = z.infer<typeof ZRunDocumentRef>;

/** An approved memory a run put into its plan's context ("Used memories"). */
export const ZUsedMemory = z.object({ id: z.string(), text: z.string() });
export type TUsedMemory = z.infer<typeof ZUsedMemory>;

/** The most passages one step gets (fewer when its model's context window is small). */
export const STEP_PASSAGES_MAX = 8;
/** The most memories a run puts into its plan's context. */
export const RUN_MEMORIES_MAX = 5;

/** The `[n]` citation numbers in a text, each once, in order of first appearance. */
export function citedNumbers(text: string): number[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    for (const part of (match[1] as string).split(",")) seen.add(Number(part.trim()));
  }
  return [...seen].filter((n) => n >= 1);
}

/** A step of the plan as it runs: the coordinator's sub-task with the model it runs on. */
export const ZPlannedStep = z.object({
  id: z.string(),
  role: ZAgentRoleId,
  task: z.string(),
  depends_on: z.array(z.string()),
  /** agent: works in parallel with its independent peers; review: the Critic's pass. */
  phase: z.enum(["agent", "review"]),
  ...modelRef,
  /**
   * The attached documents (ids, see the plan's `documents`) this sub-task searches; absent
   * or empty when the session has none attached or the step needs none.
   */
  document_ids: z.array(z.string()).optional(),
  /** The tools the coordinator expects this step to use (names; absent: none named). */
  tools: z.array(z.string()).optional(),
  /** Set in plan review (decision 069): the call's temperature (absent: the model's default). */
  temperature: z.number().min(0).max(2).optional(),
  /** Set in plan review (decision 069): instructions for this step, after the role's own. */
  instructions: z.string().max(2000).optional(),
});
export type TPlannedStep = z.infer<typeof ZPlannedStep>;

export const ZRunPlanView = z.object({
  mode: ZRunMode,
  /** The coordinator's reason for this split (automatic mode: why these roles). */
  rationale: z.string(),
  steps: z.array(ZPlannedStep),
  /** What the engine changed in the coordinator's plan, e.g. a chosen role it left out. */
  notes: z.array(z.string()),
  coordinator: z.object(modelRef),
  /** The session's attached documents the plan could name (absent: none attached). */
  documents: z.array(ZRunDocumentRef).optional(),
  /** The approved memories put into the plan's context (absent or empty: none used). */
  memories: z.array(ZUsedMemory).optional(),
});
export type TRunPlanView = z.infer<typeof ZRunPlanView>;

export const ZRunStep = z.object({
  id: z.string(),
  kind: ZRunStepKind,
  /** The plan step it works on; null for the plan and the synthesis. */
  step_id: z.string().nullable(),
  role: ZAgentRoleId.nullable(),
  ...modelRef,
  provider: z.string().nullable(),
  simulated: z.boolean().nullable(),
  status: ZRunStepStatus,
  /** True when a stop (or shutdown) cut the call: `output` is what had arrived. */
  stopped: z.boolean(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  credits: z.number(),
  latency_ms: z.number().int().nullable(),
  ttft_ms: z.number().int().nullable(),
  output: z.string(),
  error: ZRunError.nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /**
   * 1 for the run's own call; 2, 3, … for re-runs of the same plan step on another model
   * or temperature (docs/decisions/031-chat-actions-and-step-reruns.md).
   */
  version: z.number().int().min(1),
  /** A re-run: the call it re-ran (the step's first version); null otherwise. */
  rerun_of: z.string().nullable(),
  /** The temperature asked for (re-runs only); null: the model's default. */
  temperature: z.number().nullable(),
  /** A re-run with review: the Critic's score of the drafts with this version in them. */
  critic_score: z.number().nullable(),
  /** The numbers of the passages (the run's `passages`) this call was given. */
  passages: z.array(z.number().int()).optional(),
  /** The numbers its output cites as `[n]` (only numbers it was given count). */
  cited: z.array(z.number().int()).optional(),
  /** A call stopped where its hold could not grow: the limit that stopped it (decision 053). */
  limit: ZCreditLimitKind.optional(),
  /** A simulated call that was not charged: what it would have cost (decision 053). */
  would_be_credits: z.number().optional(),
  /** A fork's step kept from the run it forked (decision 070): not called, not charged. */
  copied: z.boolean().optional(),
});
export type TRunStep = z.infer<typeof ZRunStep>;

/**
 * One tool call of a stored run as its lane shows it after a reload and as exports carry it
 * (decision 058): rebuilt from its stored `tool.*` events.
 */
export const ZRunToolCall = z.object({
  tool_call_id: z.string(),
  /** The lane's model call (run step id) that asked for it. */
  call_id: z.string(),
  step_id: z.string(),
  tool: z.string(),
  title: z.string(),
  risk: ZToolRisk,
  source: ZToolSourceView,
  args: z.unknown(),
  status: z.enum(["running", "completed", "failed", "denied"]),
  duration_ms: z.number().int().nullable(),
  output_chars: z.number().int().nullable(),
  truncated: z.boolean(),
  credits: z.number(),
  text_preview: z.string(),
  sources: z.array(ZToolSource).default([]),
  /** Files it wrote (run_code, decision 068), each a download for the session's readers. */
  files: z.array(ZToolFile).optional(),
  error: ZRunError.nullable(),
  /**
   * The person's answer when it needed approval (null: none asked). The request's id, reason,
   * note and "always" let a reload show the answered card (decision 076); absent in exports
   * made before them.
   */
  approval: z
    .object({
      decision: ZToolApprovalDecision,
      by_name: z.string().nullable(),
      at: z.string(),
      id: z.string().optional(),
      reason: ZToolApprovalReason.optional(),
      note: z.string().nullable().optional(),
      always: z.boolean().optional(),
    })
    .nullable(),
});
export type TRunToolCall = z.infer<typeof ZRunToolCall>;

export const ZRun = z.object({
  id: z.string(),
  session_id: z.string(),
  /** The user's message that started the run. */
  message_id: z.string(),
  /** The final answer, once there is one. */
  result_message_id: z.string().nullable(),
  status: ZRunStatus,
  mode: ZRunMode,
  coordinator_model: z.string(),
  plan: ZRunPlanView.nullable(),
  critic_score: z.number().nullable(),
  total_credits: z.number(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  error: ZRunError.nullable(),
  /** seq of the run's first event: join with lastSeq = first_seq - 1 to replay the run. */
  first_seq: z.number().int().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  steps: z.array(ZRunStep),
  /** Every passage the run gave its steps, by number (empty: no documents used). */
  passages: z.array(ZRunPassage).optional(),
  /** The numbers the run's final answer cites. */
  cited: z.array(z.number().int()).optional(),
  /** The approved memories the run used (also in `plan.memories`). */
  memories: z.array(ZUsedMemory).optional(),
  /** True for a run that came in with a session import: it never ran here, cost nothing. */
  imported: z.boolean().optional(),
  /**
   * The Critic's score of each draft, by plan step id, from its review of the run's own
   * drafts (absent: no review scored one). `critic_score` is the overall verdict.
   */
  draft_scores: z.record(z.string(), z.number()).optional(),
  /**
   * Whether the Critic's review of the run's own drafts rested on checks that ran ("ran")
   * or on reading ("opinion"), and those checks (decisions 062, 068); absent: no review.
   */
  critic_evidence: z.enum(["ran", "opinion"]).optional(),
  critic_checks: ZCodeChecks.optional(),
  /** How often the run was taken over after its instance stopped (absent: never; decision 047). */
  resumes: z.number().int().min(1).optional(),
  /**
   * Its lanes' tool calls, in order, so a finished run's rows come back on a reload (a running
   * run's come from its replayed events). Only the owner's session view carries them.
   */
  tool_calls: z.array(ZRunToolCall).optional(),
  /** The latest time it was put on screen among its message's runs (decision 070). */
  shown_at: z.string().optional(),
  /** A fork of another run of the same message (decision 070). */
  fork: ZRunFork.optional(),
  /**
   * An outline (decision 077): a run older than the page of a paged session view
   * (`GET /api/sessions/{id}?runs=N`), with its ids, status, times and totals but without its
   * steps, plan and tool calls; `GET /api/sessions/{id}/runs?before=` reads it in full.
   */
  outline: z.literal(true).optional(),
});
export type TRun = z.infer<typeof ZRun>;

/** POST /api/ai/chat (the data model "Chat message"). */
export const ZChatRequest = z.object({
  session_id: z.string().trim().min(1),
  message: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(CHAT_MESSAGE_MAX, `must be at most ${CHAT_MESSAGE_MAX} characters`),
});
export type TChatRequest = z.infer<typeof ZChatRequest>;

export const ZChatResponse = z.object({ run_id: z.string(), message_id: z.string() });
export type TChatResponse = z.infer<typeof ZChatResponse>;

export const ZCancelRunResponse = z.object({ run_id: z.string(), status: ZRunStatus });
export type TCancelRunResponse = z.infer<typeof ZCancelRunResponse>;

/** The highest temperature a re-run may ask for (the providers' common range). */
export const RERUN_TEMPERATURE_MAX = 2;

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/rerun: runs one agent step of an ended
 * run again, on `model` (and `temperature`), with the same sub-task and inputs; with
 * `review`, the Critic then scores the drafts with the new version in place of the old.
 */
export const ZRerunStepRequest = z.object({
  model: z.string().trim().min(1),
  temperature: z.number().min(0).max(RERUN_TEMPERATURE_MAX).optional(),
  review: z.boolean().default(true),
});
export type TRerunStepRequest = z.input<typeof ZRerunStepRequest>;

export const ZRerunStepResponse = z.object({
  run_id: z.string(),
  step_id: z.string(),
  call_id: z.string(),
  version: z.number().int(),
});
export type TRerunStepResponse = z.infer<typeof ZRerunStepResponse>;

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/versions/{version}/synthesize (decision
 * 031): the coordinator writes the run's final answer again, from the run's drafts with this
 * re-run version in place of the step's first. The run's own answer stays; the new one is an
 * alternative version (a synthesis step row linked to the re-run).
 */
export const ZSynthesizeVersionResponse = z.object({
  run_id: z.string(),
  step_id: z.string(),
  version: z.number().int(),
  /** The new synthesis call (its step row's id). */
  call_id: z.string(),
  /** The re-run whose draft it uses. */
  rerun_call_id: z.string(),
});
export type TSynthesizeVersionResponse = z.infer<typeof ZSynthesizeVersionResponse>;

/** POST /api/ai/chat/{runId}/regenerate: a new run of the same message (the old one stays). */
export const ZRegenerateResponse = ZChatResponse;

export const RUN_ERROR_CODES = {
  rerunInProgress: "rerun_in_progress",
  stepNotRun: "step_not_run",
  versionNotCompleted: "version_not_completed",
  noAnswer: "no_answer",
  runInProgress: "run_in_progress",
  budgetExceeded: "budget_exceeded",
  planFailed: "plan_failed",
  synthesisFailed: "synthesis_failed",
  allAgentsFailed: "all_agents_failed",
  interrupted: "run_interrupted",
} as const;

// ---------------------------------------------------------------------------------------
// Run events: stored with a per-session sequence number and sent to the session's room.
// ---------------------------------------------------------------------------------------

export const RUN_EVENT_TYPES = [
  "run.started",
  "run.plan",
  "plan.delta",
  "agent.started",
  "agent.delta",
  "agent.done",
  "step.passages",
  "critic.verdict",
  "final.delta",
  "final.version",
  "run.completed",
  "run.failed",
  "run.cancelled",
  "run.resumed",
  "credits.changed",
  "tool.call",
  "tool.approval",
  "tool.approval.decided",
  "tool.result",
  "run.planned",
  "plan.started",
  "lane.steered",
  "message.queued",
  "message.taken",
] as const;
export type TRunEventType = (typeof RUN_EVENT_TYPES)[number];

const eventBase = {
  /** Per session, from 1, without gaps: the client's cursor for replay. */
  seq: z.number().int().positive(),
  session_id: z.string(),
  run_id: z.string(),
  /** When the server created the event (ISO time). */
  at: z.string(),
};

/** The calls whose text streams in lanes: the agents, the Critic and revisions. */
const ZLaneKind = z.enum(["agent", "critic", "revision"]);

const callBase = {
  /** The run step (one model call); deltas and the done event carry the same id. */
  call_id: z.string(),
  step_id: z.string(),
  kind: ZLaneKind,
};

/**
 * A step of the plan as the coordinator is still writing it (decision 079): shown once its
 * role is known; its task may still grow.
 */
export const ZPlanDraftStep = z.object({ role: ZAgentRoleId, task: z.string() });
export type TPlanDraftStep = z.infer<typeof ZPlanDraftStep>;

/** The plan as far as the coordinator has written it: what `plan.delta` events add up to. */
export interface TPlanDraft {
  /** The planning call it comes from: a repair attempt's call starts a new draft. */
  callId: string;
  rationale: string;
  steps: TPlanDraftStep[];
}

/**
 * The draft after one `plan.delta` (decision 079): a new call, or a restart, begins again;
 * otherwise the rationale grows by the event's text and its steps replace the draft's from
 * `from` on. The final `run.plan` replaces the draft whatever it holds.
 */
export function applyPlanDelta(
  draft: TPlanDraft | null,
  event: {
    call_id: string;
    restart?: boolean | undefined;
    rationale: string;
    from: number;
    steps: TPlanDraftStep[];
  },
): TPlanDraft {
  const base =
    draft && draft.callId === event.call_id && !event.restart
      ? draft
      : { callId: event.call_id, rationale: "", steps: [] };
  return {
    callId: event.call_id,
    rationale: base.rationale + event.rationale,
    steps: [...base.steps.slice(0, event.from), ...event.steps],
  };
}

/**
 * The Critic's verdict on a run's drafts (the `critic.verdict` event, and the export's
 * record of it): the overall score, the per-draft scores and the drafts sent back.
 */
export const ZCriticVerdict = z.object({
  /** The critic call (run step id) that gave it. */
  call_id: z.string(),
  /** The overall "Score: N/10"; null when the Critic gave none. */
  score: z.number().nullable(),
  bar: z.number(),
  verdict: z.enum(["approve", "revise", "unscored"]),
  /** Per-draft scores by plan step id, where the Critic gave them. */
  draft_scores: z.record(z.string(), z.number()),
  /** The drafts the revision round rewrites (empty when approved). */
  revise_step_ids: z.array(z.string()),
  /** A re-run's review: the re-run call it scored (no revision round follows). */
  rerun_call_id: z.string().optional(),
  /** "ran": the drafts' code and tests were run before scoring (decisions 062, 068). */
  evidence: z.enum(["ran", "opinion"]).optional(),
  /** The checks that ran, all drafts together. */
  checks: ZCodeChecks.optional(),
});
export type TCriticVerdict = z.infer<typeof ZCriticVerdict>;

export const ZRunEvent = z.discriminatedUnion("type", [
  z.object({
    ...eventBase,
    type: z.literal("run.started"),
    message: ZChatMessage,
    mode: ZRunMode,
    coordinator_model: z.string(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run.plan"),
    plan: ZRunPlanView,
    /** The planning call: its cost, and whether a repair retry was needed. */
    credits: z.number(),
    repaired: z.boolean(),
  }),
  /**
   * The plan as the coordinator writes it (decision 079), gathered like lane text: the
   * rationale's new text and the steps parsed so far from `from` on. Only a preview: the
   * run's plan is the `run.plan` that follows (checked, repaired, fitted to the run).
   */
  z.object({
    ...eventBase,
    type: z.literal("plan.delta"),
    /** The planning call; a repair attempt is a new call, whose draft starts empty. */
    call_id: z.string(),
    /** The call's answer started over (its provider failed over): the draft starts empty. */
    restart: z.boolean().optional(),
    rationale: z.string(),
    from: z.number().int().min(0),
    steps: z.array(ZPlanDraftStep),
  }),
  z.object({
    ...eventBase,
    type: z.literal("agent.started"),
    ...callBase,
    role: ZAgentRoleId,
    task: z.string(),
    ...modelRef,
    /** Re-runs only (absent: version 1): see ZRunStep. */
    version: z.number().int().min(2).optional(),
    rerun_of: z.string().optional(),
    temperature: z.number().nullable().optional(),
  }),
  z.object({ ...eventBase, type: z.literal("agent.delta"), ...callBase, text: z.string() }),
  z.object({
    ...eventBase,
    type: z.literal("agent.done"),
    ...callBase,
    role: ZAgentRoleId,
    status: z.enum(["completed", "failed", "stopped"]),
    provider: z.string().nullable(),
    simulated: z.boolean().nullable(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    credits: z.number(),
    latency_ms: z.number().int().nullable(),
    ttft_ms: z.number().int().nullable(),
    /** Why it failed, and what the run does next (e.g. continues without this agent). */
    error: ZRunError.nullable(),
    /**
     * A stopped call: the tokens are an estimate from the text that had arrived (providers
     * report usage only at the end); its credits are 0, as nothing is charged for it.
     */
    usage_estimated: z.boolean().optional(),
    /** The passage numbers its output cites (absent when it was given none). */
    cited: z.array(z.number().int()).optional(),
    /** Stopped where its hold could not grow: the limit that stopped it (decision 053). */
    limit: ZCreditLimitKind.optional(),
    /** A simulated call that was not charged: what it would have cost (decision 053). */
    would_be_credits: z.number().optional(),
    /**
     * What the lane's tool calls cost, included in `credits` (absent: none priced; decision
     * 067): `credits` is the lane's whole step, model turns and tools.
     */
    tool_credits: z.number().optional(),
  }),
  /**
   * The passages a lane's call was given, sent right after its agent.started (only when it
   * got some): the lane shows them, and `[n]` in its text and the answer link to them.
   */
  z.object({
    ...eventBase,
    type: z.literal("step.passages"),
    ...callBase,
    passages: z.array(ZRunPassage),
  }),
  z.object({
    ...eventBase,
    type: z.literal("critic.verdict"),
    ...ZCriticVerdict.shape,
  }),
  z.object({
    ...eventBase,
    type: z.literal("final.delta"),
    call_id: z.string(),
    text: z.string(),
    /** A re-written answer (decision 031): the step's re-run whose draft it uses. */
    rerun_call_id: z.string().optional(),
  }),
  /**
   * A re-written answer (decision 031) starting ("running") and ending: the run's own answer
   * needs none (run.completed carries it), an answer version has no run event.
   */
  z.object({
    ...eventBase,
    type: z.literal("final.version"),
    call_id: z.string(),
    rerun_call_id: z.string(),
    /** The plan step whose re-run version (`version`) the answer uses. */
    rerun_step_id: z.string(),
    version: z.number().int().min(2),
    status: z.enum(["running", "completed", "failed", "stopped"]),
    ...modelRef,
    credits: z.number(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    error: ZRunError.nullable(),
    /** Completed, from drafts that cite passages: the ones the new answer cites. */
    citations: z.array(ZRunPassage).optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run.completed"),
    message: ZChatMessage,
    critic_score: z.number().nullable(),
    total_credits: z.number(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    duration_ms: z.number().int(),
    /** The synthesis call (the final answer's badge). */
    synthesis: z.object({ call_id: z.string(), ...modelRef, credits: z.number() }),
    /** The passages the final answer cites as `[n]` (absent when the run used none). */
    citations: z.array(ZRunPassage).optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run.failed"),
    code: z.string(),
    message: z.string(),
    total_credits: z.number(),
    /** A failure for money: which limit, what is left of it, what a minimal step needs. */
    limit: ZCreditLimitKind.optional(),
    available: z.number().optional(),
    required: z.number().optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal("run.cancelled"),
    reason: ZRunCancelReason,
    total_credits: z.number(),
  }),
  /**
   * The run goes on after an interruption (decision 047): its instance stopped (a crash, a
   * restart, a drain that handed it on) and this one took it over from its last completed
   * step. What had streamed stays; the interrupted calls start again in new lanes.
   */
  z.object({
    ...eventBase,
    type: z.literal("run.resumed"),
    /** The phase the run had reached when it was interrupted. */
    from_status: ZRunStatus,
    /** Completed calls kept as they were (not called or paid again). */
    reused_steps: z.number().int().min(0),
    /** 1 for the first resumption of this run, 2 for the second… */
    attempt: z.number().int().min(1),
  }),
  z.object({
    ...eventBase,
    type: z.literal("credits.changed"),
    call_id: z.string(),
    /** What this call cost (0 on the user's own key). */
    credits: z.number(),
    run_credits: z.number(),
    session_spent_credits: z.number(),
    /** The user's balance after the charge, and what is left of it for new holds. */
    balance: z.number(),
    available: z.number(),
  }),
  /**
   * A lane's model asked for a tool (decision 058): the row appears in the lane,
   * "running" (or waiting for approval when a `tool.approval` follows).
   */
  z.object({
    ...eventBase,
    type: z.literal("tool.call"),
    ...toolEventIds,
    title: z.string(),
    source: ZToolSourceView,
    risk: ZToolRisk,
    /** The model's arguments (JSON; capped at TOOL_ARGS_MAX_CHARS when serialised). */
    args: z.unknown(),
    status: z.literal("running"),
  }),
  /** The call waits for a person's approval; the lane waits, the others go on. */
  z.object({
    ...eventBase,
    type: z.literal("tool.approval"),
    ...toolEventIds,
    /** The approval request's id (what the approve/deny request names). */
    approval_id: z.string(),
    args: z.unknown(),
    risk: ZToolRisk,
    source: ZToolSourceView,
    reason: ZToolApprovalReason,
    /** When an unanswered request counts as denied (ISO time). */
    expires_at: z.string(),
  }),
  /** A person (or the time limit) answered the approval request. */
  z.object({
    ...eventBase,
    type: z.literal("tool.approval.decided"),
    ...toolEventIds,
    approval_id: z.string(),
    decision: ZToolApprovalDecision,
    /** Null when the request expired. */
    by_user_id: z.string().nullable(),
    by_name: z.string().nullable(),
    /** The arguments the tool runs with (possibly edited by the approver). */
    args: z.unknown(),
    /** "Always allow this tool in this session". */
    always: z.boolean(),
    /** What the lane and the model are told (e.g. why it was denied); null: nothing. */
    note: z.string().nullable(),
  }),
  /** The tool call ended: its output went to the model (capped), the lane shows the row. */
  z.object({
    ...eventBase,
    type: z.literal("tool.result"),
    ...toolEventIds,
    status: z.enum(["completed", "failed", "denied"]),
    duration_ms: z.number().int().min(0),
    /** The characters of the output (before the cap). */
    output_chars: z.number().int().min(0),
    /** The output was longer than TOOL_OUTPUT_MAX_CHARS: the model saw the start and a note. */
    truncated: z.boolean(),
    /** What the call cost (0: free). */
    credits: z.number(),
    /** The output's start (at most TOOL_TEXT_PREVIEW_MAX characters). */
    text_preview: z.string(),
    sources: z.array(ZToolSource),
    files: z.array(ZToolFile),
    /** Why it failed or was denied (null when completed). */
    error: ZRunError.nullable(),
  }),
  /** The run waits for a person to review and start its plan (decision 069). */
  z.object({
    ...eventBase,
    type: z.literal("run.planned"),
    review_id: z.string(),
    expires_at: z.string(),
  }),
  /** The reviewed plan was started: the plan as it runs (edited or not). */
  z.object({
    ...eventBase,
    type: z.literal("plan.started"),
    plan: ZRunPlanView,
    edited: z.boolean(),
    by_name: z.string().nullable(),
  }),
  /** A lane was stopped by a person: steered with a note (it goes on), or skipped. */
  z.object({
    ...eventBase,
    type: z.literal("lane.steered"),
    /** The lane's plan step id, and the call that was stopped (null: it had not started). */
    lane: z.string(),
    lane_call_id: z.string().nullable(),
    action: z.enum(["steer", "skip"]),
    note: z.string(),
    by_name: z.string().nullable(),
  }),
  /** A message sent while the team worked: queued for the next step boundary. */
  z.object({
    ...eventBase,
    type: z.literal("message.queued"),
    queued_id: z.string(),
    text: z.string(),
    by_name: z.string().nullable(),
  }),
  /** Queued messages the coordinator took into the next step (by its plan step id). */
  z.object({
    ...eventBase,
    type: z.literal("message.taken"),
    queued_ids: z.array(z.string()),
    /** The plan step whose prompt first carries them (null: the review or the answer). */
    before_step: z.string().nullable(),
  }),
]);
export type TRunEvent = z.infer<typeof ZRunEvent>;
export type TRunEventOf<K extends TRunEventType> = Extract<TRunEvent, { type: K }>;

/** GET /api/sessions/{id}/events?after=seq: the same events as the socket replays. */
export const ZRunEventsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
export type TRunEventsQuery = z.infer<typeof ZRunEventsQuery>;

export const ZRunEventsResponse = z.object({
  events: z.array(ZRunEvent),
  /** The session's newest seq (0 before its first event). */
  last_seq: z.number().int(),
  has_more: z.boolean(),
});
export type TRunEventsResponse = z.infer<typeof ZRunEventsResponse>;

/**
 * socket `join-session` (the API): the session id, bare (as the spec has it) or as
 * `{ sessionId, lastSeq }`. lastSeq: the newest seq the client has; 0 or absent for all.
 */
export const ZJoinSessionRequest = z
  .union([
    z.string(),
    z.object({
      sessionId: z.string(),
      lastSeq: z.number().int().min(0).optional(),
      /**
       * The `at` of the client's event numbered lastSeq, when it has it: the server answers
       * `rewound` when its own event of that number is another one or none.
       */
      lastAt: z.string().max(64).optional(),
    }),
  ])
  .transform((payload) => (typeof payload === "string" ? { sessionId: payload } : payload));
export type TJoinSessionRequest = z.infer<typeof ZJoinSessionRequest>;

/**
 * The ack of `join-session`. The server joins the room before it reads the backlog, so live
 * events may arrive before the ack and overlap the backlog: apply both through
 * `takeNewEvents`, which drops what was seen and keeps seq order.
 */
export type TJoinSessionAck =
  | {
      ok: true;
      backlog: TRunEvent[];
      lastSeq: number;
      hasMore: boolean;
      /**
       * The server's event numbered `lastSeq` is not the client's (`lastAt`): a server that
       * sends events before storing them (one process) died before storing the client's last
       * ones, and numbers its new events from its last stored one. What the client holds past
       * that point is not the session's any more: it reads the session again. No backlog.
       */
      rewound?: true;
    }
  | { ok: false; error: "not_found" | "invalid_request" | "unavailable" };

/** socket `leave-session`: the session id, bare or as `{ sessionId }` (the API). */
export const ZLeaveSessionRequest = z
  .union([z.string(), z.object({ sessionId: z.string() })])
  .transform((payload) => (typeof payload === "string" ? { sessionId: payload } : payload));
export type TLeaveSessionAck = { ok: boolean };

/** The most events one join ack carries; the rest come from GET /api/sessions/{id}/events. */
export const JOIN_BACKLOG_LIMIT = 2000;

/**
 * The client side of exactly-once delivery: from events that may repeat or arrive out of
 * order (backlog + live), the ones after `lastSeq`, each once, in seq order, stopping at the
 * first gap (the missing ones are still on their way or must be fetched).
 */
export function takeNewEvents<E extends { seq: number }>(
  lastSeq: number,
  events: readonly E[],
): { events: E[]; lastSeq: number; pending: E[] } {
  const bySeq = new Map<number, E>();
  for (const event of events) if (event.seq > lastSeq) bySeq.set(event.seq, event);
  const taken: E[] = [];
  let cursor = lastSeq;
  while (bySeq.has(cursor + 1)) {
    cursor += 1;
    taken.push(bySeq.get(cursor) as E);
    bySeq.delete(cursor);
  }
  const pending = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return { events: taken, lastSeq: cursor, pending };
}

/** GET /api/sessions/{id}: the session with its conversation and its runs, oldest first. */
export const ZSessionDetailResponse = z.object({
  session: ZSession,
  messages: z.array(ZChatMessage),
  runs: z.array(ZRun),
  /** The session's newest event seq: join with it to get only what happens next. */
  last_seq: z.number().int(),
});
export type TSessionDetailResponse = z.infer<typeof ZSessionDetailResponse>;

/** The most runs one page of a session's runs holds (decision 077). */
export const SESSION_RUNS_PAGE_MAX = 50;

/**
 * GET /api/sessions/{id}?runs=N: the newest N runs in full, the older ones as outlines (a
 * long session opens at once, decision 077); without `runs`, every run in full.
 */
export const ZSessionDetailQuery = z.object({
  runs: z.coerce.number().int().min(1).max(SESSION_RUNS_PAGE_MAX).optional(),
});
export type TSessionDetailQuery = z.infer<typeof ZSessionDetailQuery>;

/** GET /api/sessions/{id}/runs?before=<run id>&limit=N: the runs just older than `before`. */
export const ZSessionRunsQuery = z.object({
  before: z.string().trim().min(1),
  limit: z.coerce.number().int().min(1).max(SESSION_RUNS_PAGE_MAX).default(10),
});
export type TSessionRunsQuery = z.input<typeof ZSessionRunsQuery>;

/** Up to `limit` runs in full, oldest first; `earlier`: older ones remain (ask with the first's id). */
export const ZSessionRunsResponse = z.object({
  runs: z.array(ZRun),
  earlier: z.boolean(),
});
export type TSessionRunsResponse = z.infer<typeof ZSessionRunsResponse>;

// ---------------------------------------------------------------------------------------
// Session attachments: the documents a session's runs work from (decision 037).
// ---------------------------------------------------------------------------------------

/** The most documents one session can have attached. */
export const SESSION_DOCUMENTS_MAX = 20;

export const ZSessionDocument = z.object({
  id: z.string(),
  name: z.string(),
  /** The document's processing status (documents module); only ready ones are searched. */
  status: z.string(),
  pages: z.number().int().nullable(),
  attached_at: z.string(),
});
export type TSessionDocument = z.infer<typeof ZSessionDocument>;

/** GET and PUT /api/sessions/{id}/documents. */
export const ZSessionDocumentsResponse = z.object({ documents: z.array(ZSessionDocument) });
export type TSessionDocumentsResponse = z.infer<typeof ZSessionDocumentsResponse>;

/** PUT /api/sessions/{id}/documents: the full set (replaces it; [] detaches all). */
export const ZPutSessionDocumentsRequest = z.object({
  document_ids: z
    .array(z.string().trim().min(1).max(100))
    .max(SESSION_DOCUMENTS_MAX, `at most ${SESSION_DOCUMENTS_MAX} documents per session`),
});
export type TPutSessionDocumentsRequest = z.infer<typeof ZPutSessionDocumentsRequest>;

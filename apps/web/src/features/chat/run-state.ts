import {
  applyPlanDelta,
  CRITIC_SCORE_BAR,
  isRunActive,
  type TAgentRole,
  type TChatMessage,
  type TCodeChecks,
  type TCreditLimitKind,
  type TPlanDraft,
  type TRun,
  type TRunError,
  type TRunEvent,
  type TRunFork,
  type TRunMode,
  type TRunPassage,
  type TRunPlanView,
  type TRunStatus,
  type TRunToolCall,
  type TSessionDetailResponse,
  type TToolApproval,
  type TUsedMemory,
} from "@cohort/contracts";
import { type ApprovalView, approvalViewOf, type ToolCallView } from "./tool-views";

/**
 * What the conversation screen shows, built from two sources that must agree: the session
 * detail (finished runs as stored) and the run events (whatever is going on now, replayed
 * from the run's first event after a reload). Pure functions, so the reducer is tested
 * without a browser and React only renders its result.
 */
export type LaneKind = "agent" | "critic" | "revision";
export type LaneStatus = "running" | "completed" | "failed" | "stopped";

export interface ModelRef {
  model: string;
  modelName: string;
  provider: string | null;
  simulated: boolean | null;
}

export interface LaneView extends ModelRef {
  callId: string;
  stepId: string;
  kind: LaneKind;
  role: TAgentRole;
  task: string;
  text: string;
  status: LaneStatus;
  /** Null while streaming: the screen estimates from the text so far. */
  inputTokens: number | null;
  outputTokens: number | null;
  credits: number | null;
  latencyMs: number | null;
  error: TRunError | null;
  /** 1 for the run's own call; 2, 3, … for re-runs of the step (decision 031). */
  version: number;
  /** A re-run: the call it re-ran (an agent's first version, or for its review the re-run). */
  rerunOf: string | null;
  temperature: number | null;
  /** A re-run with review: the Critic's score of the drafts with this version in them. */
  criticScore: number | null;
  /** Stopped: the tokens are an estimate from the text that arrived; nothing was charged. */
  usageEstimated: boolean;
  /** The numbers of the run's passages this call was given (decision 037). */
  passages: number[];
  /** The numbers its text cites; known once the call is done. */
  cited: number[];
  /** Stopped where its hold could not grow: the limit that stopped it (decision 053). */
  limit: TCreditLimitKind | null;
  /** Answered by the simulator and not charged: what it would have cost. */
  wouldBeCredits: number | null;
  /** A fork's step kept from the run it forked: not called, not charged (decision 070). */
  copied?: boolean;
  /** Later calls of a steered lane (decision 069): their text continues this lane's. */
  aliases?: string[];
  /** The notes it was steered with, oldest first. */
  steerNotes?: string[];
  /** A person skipped it. */
  skipped?: boolean;
}

/** A message sent while the team worked (decision 069). */
export interface QueuedMessageView {
  id: string;
  text: string;
  /** The plan step whose prompt first carried it; undefined: not taken yet; null: the answer. */
  takenBefore?: string | null;
}

export interface CriticView {
  callId: string | null;
  score: number | null;
  bar: number;
  verdict: "approve" | "revise" | "unscored";
  draftScores: Record<string, number>;
  reviseStepIds: string[];
  /** "ran": the drafts' code and tests were run before scoring; null: not known (stored run). */
  evidence?: "ran" | "opinion" | null;
  checks?: TCodeChecks | null;
}

export interface FinalView {
  text: string;
  callId: string | null;
  ref: ModelRef | null;
  credits: number | null;
}

/**
 * The run's answer written again with a step's re-run version in place of its first draft
 * (decision 031): an alternative beside the run's own answer, which stays.
 */
export interface AnswerVersionView {
  callId: string;
  /** The step's re-run whose draft it uses, that step and its version. */
  rerunCallId: string;
  stepId: string;
  version: number;
  text: string;
  status: LaneStatus;
  ref: ModelRef;
  credits: number | null;
  error: TRunError | null;
}

export interface RunView {
  id: string;
  messageId: string | null;
  status: TRunStatus;
  mode: TRunMode | null;
  coordinatorModel: string | null;
  plan: TRunPlanView | null;
  /**
   * The plan as the coordinator writes it, before `run.plan` (decision 079): shown while the
   * run plans, then replaced by the plan.
   */
  planDraft?: TPlanDraft | null;
  planCredits: number | null;
  planRepaired: boolean;
  lanes: LaneView[];
  critic: CriticView | null;
  final: FinalView | null;
  /** Re-written answers, oldest first. */
  answers: AnswerVersionView[];
  resultMessageId: string | null;
  totalCredits: number;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
  error: TRunError | null;
  /** A failure for money: the limit, what was left of it and what a minimal step needed. */
  refusal: { limit: TCreditLimitKind; available: number | null; required: number | null } | null;
  cancelReason: "user" | "shutdown" | null;
  createdAt: string | null;
  finishedAt: string | null;
  /** Built from the stored run: later events for it are old news. */
  settled: boolean;
  /** Every passage the run gave its agents, by citation number: `[n]` anywhere means it. */
  passages: Record<number, TRunPassage>;
  /** The approved memories the run put into its plan's context. */
  memories: TUsedMemory[];
  /** Came in with a session import: it ran elsewhere and cost nothing here. */
  imported?: boolean;
  /** Taken over after its server stopped, this many times (decision 047). */
  resumes?: number;
  /** The lanes' tool calls, in the order they were made (from the run's events). */
  toolCalls: ToolCallView[];
  /** Tool calls' requests for approval, by when they were asked (decision 059). */
  approvals: ApprovalView[];
  /** When it was last put on screen among its message's runs (decision 070). */
  shownAt?: string;
  /** A fork of another run of the same message (decision 070). */
  fork?: TRunFork;
  /** Waiting in `planned` for its plan to be started (decision 069). */
  review?: { id: string; expiresAt: string } | null;
  /** Messages sent while the team worked (decision 069). */
  queued?: QueuedMessageView[];
  /**
   * Older than the page the session opened with (decision 077): ids, status and totals only,
   * until "Load earlier runs" reads it in full.
   */
  outline?: boolean;
}

export interface ConversationState {
  messages: TChatMessage[];
  runs: Record<string, RunView>;
}

export const EMPTY_CONVERSATION: ConversationState = { messages: [], runs: {} };

function emptyRun(id: string): RunView {
  return {
    id,
    messageId: null,
    status: "queued",
    mode: null,
    coordinatorModel: null,
    plan: null,
    planCredits: null,
    planRepaired: false,
    lanes: [],
    critic: null,
    final: null,
    answers: [],
    resultMessageId: null,
    totalCredits: 0,
    inputTokens: null,
    outputTokens: null,
    durationMs: null,
    error: null,
    refusal: null,
    cancelReason: null,
    createdAt: null,
    finishedAt: null,
    settled: false,
    passages: {},
    memories: [],
    toolCalls: [],
    approvals: [],
  };
}

function passagesByNumber(
  known: Record<number, TRunPassage>,
  passages: readonly TRunPassage[] | undefined,
): Record<number, TRunPassage> {
  if (!passages || passages.length === 0) return known;
  const next = { ...known };
  for (const passage of passages) next[passage.n] = passage;
  return next;
}

function upsertMessage(messages: TChatMessage[], message: TChatMessage): TChatMessage[] {
  const index = messages.findIndex((m) => m.id === message.id);
  if (index >= 0) {
    const next = [...messages];
    next[index] = message;
    return next;
  }
  return [...messages, message].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** A stored run as the screen shows it. */
export function runFromSnapshot(run: TRun, messages: readonly TChatMessage[]): RunView {
  const taskOf = new Map(run.plan?.steps.map((s) => [s.id, s.task]) ?? []);
  const lanes: LaneView[] = run.steps
    .filter((s) => (s.kind === "agent" || s.kind === "critic" || s.kind === "revision") && s.role)
    .map((s) => ({
      callId: s.id,
      stepId: s.step_id ?? s.id,
      kind: s.kind as LaneKind,
      role: s.role as TAgentRole,
      task: taskOf.get(s.step_id ?? "") ?? "",
      model: s.model,
      modelName: s.model_name,
      provider: s.provider,
      simulated: s.simulated,
      text: s.output,
      // A re-run still streaming is replayed from its events (conversationFromDetail); a
      // run's own step left running was cut off.
      status: s.status === "running" && s.rerun_of === null ? "stopped" : s.status,
      inputTokens: s.input_tokens,
      outputTokens: s.output_tokens,
      credits: s.credits,
      latencyMs: s.latency_ms,
      error: s.error,
      version: s.version,
      rerunOf: s.rerun_of,
      temperature: s.temperature,
      criticScore: s.critic_score,
      usageEstimated:
        s.status !== "completed" &&
        s.output_tokens > 0 &&
        (s.credits === 0 || s.status === "stopped"),
      passages: s.passages ?? [],
      cited: s.cited ?? [],
      limit: s.limit ?? null,
      wouldBeCredits: s.would_be_credits ?? null,
      ...(s.copied ? { copied: true } : {}),
    }));
  const plan = run.steps.find((s) => s.kind === "plan");
  const synthesis = run.steps.find((s) => s.kind === "synthesis" && s.rerun_of === null);
  const answers: AnswerVersionView[] = run.steps
    .filter((s) => s.kind === "synthesis" && s.rerun_of !== null)
    .map((s) => ({
      callId: s.id,
      rerunCallId: s.rerun_of as string,
      stepId: lanes.find((l) => l.callId === s.rerun_of)?.stepId ?? "",
      version: s.version,
      // A re-written answer still streaming is replayed from its events.
      text: s.status === "running" ? "" : s.output,
      status: s.status,
      ref: {
        model: s.model,
        modelName: s.model_name,
        provider: s.provider,
        simulated: s.simulated,
      },
      credits: s.status === "running" ? null : s.credits,
      error: s.error,
    }));
  const criticLane = lanes.find((l) => l.kind === "critic" && l.rerunOf === null);
  const result = messages.find((m) => m.id === run.result_message_id);
  const revised = lanes.filter((l) => l.kind === "revision").map((l) => l.stepId);
  const finalText = result?.content ?? synthesis?.output ?? "";
  return {
    ...emptyRun(run.id),
    messageId: run.message_id,
    status: run.status,
    mode: run.mode,
    coordinatorModel: run.coordinator_model,
    plan: run.plan,
    planCredits: plan?.credits ?? null,
    lanes,
    critic:
      criticLane && criticLane.status === "completed"
        ? {
            callId: criticLane.callId,
            score: run.critic_score,
            bar: CRITIC_SCORE_BAR,
            verdict:
              run.critic_score === null
                ? "unscored"
                : run.critic_score >= CRITIC_SCORE_BAR
                  ? "approve"
                  : "revise",
            draftScores: run.draft_scores ?? {},
            reviseStepIds: revised,
            // The checks behind the score survive a reload (decision 068).
            evidence: run.critic_evidence ?? null,
            ...(run.critic_checks ? { checks: run.critic_checks } : {}),
          }
        : null,
    final:
      synthesis || finalText
        ? {
            text: finalText,
            callId: synthesis?.id ?? null,
            ref: synthesis
              ? {
                  model: synthesis.model,
                  modelName: synthesis.model_name,
                  provider: synthesis.provider,
                  simulated: synthesis.simulated,
                }
              : null,
            credits: synthesis?.credits ?? null,
          }
        : null,
    answers,
    resultMessageId: run.result_message_id,
    totalCredits: run.total_credits,
    inputTokens: run.input_tokens,
    outputTokens: run.output_tokens,
    durationMs:
      run.finished_at !== null
        ? Math.max(0, Date.parse(run.finished_at) - Date.parse(run.created_at))
        : null,
    error: run.error,
    cancelReason: run.status === "cancelled" ? "user" : null,
    createdAt: run.created_at,
    finishedAt: run.finished_at,
    settled: true,
    passages: passagesByNumber({}, run.passages),
    memories: run.memories ?? run.plan?.memories ?? [],
    ...(run.imported ? { imported: true } : {}),
    ...(run.resumes ? { resumes: run.resumes } : {}),
    toolCalls: (run.tool_calls ?? []).map((call) => toolCallFromSnapshot(call, lanes, run.status)),
    approvals: (run.tool_calls ?? []).flatMap((call) => answeredApproval(call)),
    ...(run.shown_at ? { shownAt: run.shown_at } : {}),
    ...(run.fork ? { fork: run.fork } : {}),
  };
}

/** A tool call of a stored run (decision 058): its row as the live events left it. */
function toolCallFromSnapshot(
  call: TRunToolCall,
  lanes: readonly LaneView[],
  status: TRun["status"],
): ToolCallView {
  // A call without a result in a run that has ended was cut off with it.
  const cut = call.status === "running" && !isRunActive(status);
  return {
    toolCallId: call.tool_call_id,
    callId: call.call_id,
    stepId: call.step_id,
    kind: lanes.find((l) => l.callId === call.call_id)?.kind ?? "agent",
    tool: call.tool,
    title: call.title,
    serverName: call.source.server_name ?? null,
    risk: call.risk,
    args: call.args,
    status: cut ? "failed" : call.status,
    durationMs: call.duration_ms,
    outputChars: call.output_chars,
    truncated: call.truncated,
    credits: call.status === "running" ? null : call.credits,
    preview: call.text_preview || null,
    error: cut ? TOOL_STOPPED_WITH_RUN : (call.error?.message ?? null),
    approvalId: call.approval?.id ?? null,
    approvedBy: call.approval?.decision === "approved" ? call.approval.by_name : null,
    files: call.files ?? [],
  };
}

/**
 * The answered card of a stored run's tool call that waited for a person (decision 076): a
 * reload shows who answered and when, as the live card did. Calls stored before the request's
 * id was kept have none.
 */
function answeredApproval(call: TRunToolCall): ApprovalView[] {
  const answer = call.approval;
  if (!answer?.id) return [];
  return [
    {
      id: answer.id,
      toolCallId: call.tool_call_id,
      callId: call.call_id,
      stepId: call.step_id,
      tool: call.tool,
      title: call.title,
      serverName: call.source.server_name ?? null,
      risk: call.risk,
      args: call.args,
      reason: answer.reason ?? "policy",
      expiresAt: answer.at,
      status: answer.decision,
      byName: answer.by_name,
      note: answer.note ?? null,
      always: answer.always ?? false,
      decidedAt: answer.at,
    },
  ];
}

/** A finished run's tool call that never got its result. */
export const TOOL_STOPPED_WITH_RUN = "Stopped with its run before it finished.";

/**
 * The screen's state from the session detail, and the seq after which events must be
 * replayed: a run still going is rebuilt from its first event (its stored steps have no
 * output yet), everything else is taken as stored.
 */
export function conversationFromDetail(detail: TSessionDetailResponse): {
  state: ConversationState;
  afterSeq: number;
} {
  const runs: Record<string, RunView> = {};
  let afterSeq = detail.last_seq;
  for (const run of detail.runs) {
    if (isRunActive(run.status) && run.first_seq !== null) {
      afterSeq = Math.min(afterSeq, run.first_seq - 1);
      runs[run.id] = { ...emptyRun(run.id), messageId: run.message_id, createdAt: run.created_at };
    } else if (run.outline) {
      runs[run.id] = { ...runFromSnapshot(run, detail.messages), outline: true };
    } else {
      runs[run.id] = runFromSnapshot(run, detail.messages);
      // A step's re-run going on: its text so far is only in the events (decision 031).
      if (run.first_seq !== null && rerunGoing(runs[run.id] as RunView)) {
        afterSeq = Math.min(afterSeq, run.first_seq - 1);
      }
      // A run queued without events yet: its events are all still to come.
      if (isRunActive(run.status)) runs[run.id] = { ...(runs[run.id] as RunView), settled: false };
    }
  }
  return { state: { messages: [...detail.messages], runs }, afterSeq };
}

/**
 * Earlier runs read in full (decision 077) in place of their outlines. A run the page already
 * holds in full (it streamed here, or came with an earlier page) keeps its view.
 */
export function mergeEarlierRuns(
  state: ConversationState,
  runs: readonly TRun[],
): ConversationState {
  const next = { ...state.runs };
  let changed = false;
  for (const run of runs) {
    const current = next[run.id];
    if (current && !current.outline) continue;
    next[run.id] = runFromSnapshot(run, state.messages);
    changed = true;
  }
  return changed ? { ...state, runs: next } : state;
}

/**
 * Whether two states place their runs alike: the same messages and runs, each of the same
 * message, result, times, fork and outline. A streamed delta changes a run's contents, never
 * these, so what is ordered by them need not be ordered again (decision 077).
 */
export function sameRunPlaces(a: ConversationState, b: ConversationState): boolean {
  if (a.messages !== b.messages) return false;
  let count = 0;
  for (const id in b.runs) {
    count++;
    const x = a.runs[id];
    const y = b.runs[id];
    if (x === y) continue;
    if (
      !x ||
      !y ||
      x.messageId !== y.messageId ||
      x.resultMessageId !== y.resultMessageId ||
      x.createdAt !== y.createdAt ||
      x.shownAt !== y.shownAt ||
      x.fork !== y.fork ||
      x.outline !== y.outline
    ) {
      return false;
    }
  }
  return count === Object.keys(a.runs).length;
}

/**
 * Where the turns on screen start (decision 077): after the last turn with a run still an
 * outline, so every turn shown has all its answer versions in full. 0: every turn.
 */
export function firstLoadedTurn(turns: readonly { runs: readonly RunView[] }[]): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i]?.runs.some((run) => run.outline)) return i + 1;
  }
  return 0;
}

function updateLane(
  run: RunView,
  callId: string,
  update: (lane: LaneView) => LaneView,
): LaneView[] {
  return run.lanes.map((lane) =>
    lane.callId === callId || lane.aliases?.includes(callId) ? update(lane) : lane,
  );
}

function applyToRun(run: RunView, event: TRunEvent): RunView {
  switch (event.type) {
    case "run.started":
      return {
        ...run,
        messageId: event.message.id,
        status: isRunActive(run.status) ? "planning" : run.status,
        mode: event.mode,
        coordinatorModel: event.coordinator_model,
        createdAt: run.createdAt ?? event.at,
      };
    case "plan.delta":
      // A preview only: once the run has its plan, a late or replayed piece changes nothing.
      if (run.plan) return run;
      return { ...run, planDraft: applyPlanDelta(run.planDraft ?? null, event) };
    case "run.plan":
      return {
        ...run,
        status: isRunActive(run.status) ? "running" : run.status,
        plan: event.plan,
        planDraft: null,
        planCredits: event.credits,
        planRepaired: event.repaired,
        memories: event.plan.memories ?? run.memories,
      };
    case "agent.started": {
      if (run.lanes.some((l) => l.callId === event.call_id || l.aliases?.includes(event.call_id))) {
        return run;
      }
      // A steered lane goes on in a new call: its text continues the same lane (decision 069).
      const steered = run.lanes.find(
        (l) =>
          l.stepId === event.step_id &&
          l.kind === "agent" &&
          event.kind === "agent" &&
          l.rerunOf === null &&
          event.rerun_of === undefined &&
          (l.steerNotes?.length ?? 0) > (l.aliases?.length ?? 0),
      );
      if (steered) {
        return {
          ...run,
          lanes: run.lanes.map((l) =>
            l === steered
              ? {
                  ...l,
                  aliases: [...(l.aliases ?? []), event.call_id],
                  text: l.text && !/\s$/.test(l.text) ? `${l.text}\n\n` : l.text,
                  status: "running",
                  // The stopped call's time is not the lane's: the next done sets it.
                  latencyMs: null,
                  model: event.model,
                  modelName: event.model_name,
                }
              : l,
          ),
        };
      }
      const lane: LaneView = {
        callId: event.call_id,
        stepId: event.step_id,
        kind: event.kind,
        role: event.role,
        task: event.task,
        model: event.model,
        modelName: event.model_name,
        provider: event.provider,
        simulated: event.simulated,
        text: "",
        status: "running",
        inputTokens: null,
        outputTokens: null,
        credits: null,
        latencyMs: null,
        error: null,
        version: event.version ?? 1,
        rerunOf: event.rerun_of ?? null,
        temperature: event.temperature ?? null,
        criticScore: null,
        usageEstimated: false,
        passages: [],
        cited: [],
        limit: null,
        wouldBeCredits: null,
      };
      if (lane.rerunOf !== null) return { ...run, lanes: [...run.lanes, lane] };
      const status: TRunStatus = !isRunActive(run.status)
        ? run.status
        : event.kind === "agent"
          ? "running"
          : "reviewing";
      return { ...run, status, lanes: [...run.lanes, lane] };
    }
    case "agent.delta":
      return {
        ...run,
        lanes: updateLane(run, event.call_id, (lane) => ({
          ...lane,
          text: lane.text + event.text,
        })),
      };
    case "agent.done":
      return {
        ...run,
        lanes: updateLane(run, event.call_id, (lane) => ({
          ...lane,
          status: event.status,
          provider: event.provider ?? lane.provider,
          simulated: event.simulated ?? lane.simulated,
          // A steered lane's later call (decision 069): its usage adds to the lane's.
          inputTokens:
            lane.callId === event.call_id
              ? event.input_tokens
              : (lane.inputTokens ?? 0) + event.input_tokens,
          outputTokens:
            lane.callId === event.call_id
              ? event.output_tokens
              : (lane.outputTokens ?? 0) + event.output_tokens,
          credits:
            lane.callId === event.call_id ? event.credits : (lane.credits ?? 0) + event.credits,
          latencyMs: event.latency_ms,
          error: event.error,
          usageEstimated: event.usage_estimated === true,
          cited: event.cited ?? lane.cited,
          limit: event.limit ?? null,
          wouldBeCredits: event.would_be_credits ?? null,
        })),
      };
    case "step.passages":
      return {
        ...run,
        passages: passagesByNumber(run.passages, event.passages),
        lanes: updateLane(run, event.call_id, (lane) => ({
          ...lane,
          passages: event.passages.map((p) => p.n),
        })),
      };
    case "critic.verdict":
      if (event.rerun_call_id !== undefined) {
        return {
          ...run,
          lanes: updateLane(run, event.rerun_call_id, (lane) => ({
            ...lane,
            criticScore: event.score,
          })),
        };
      }
      return {
        ...run,
        critic: {
          callId: event.call_id,
          score: event.score,
          bar: event.bar,
          verdict: event.verdict,
          draftScores: event.draft_scores,
          reviseStepIds: event.revise_step_ids,
          evidence: event.evidence ?? null,
          checks: event.checks ?? null,
        },
      };
    case "final.version":
      return { ...run, answers: upsertAnswer(run.answers, event) };
    case "final.delta":
      if (event.rerun_call_id !== undefined) {
        return {
          ...run,
          answers: run.answers.map((a) =>
            a.callId === event.call_id ? { ...a, text: a.text + event.text } : a,
          ),
        };
      }
      return {
        ...run,
        status: isRunActive(run.status) ? "synthesizing" : run.status,
        final: {
          text: (run.final?.text ?? "") + event.text,
          callId: event.call_id,
          ref: run.final?.ref ?? null,
          credits: run.final?.credits ?? null,
        },
      };
    case "run.completed":
      return {
        ...run,
        status: "completed",
        final: {
          text: event.message.content,
          callId: event.synthesis.call_id,
          ref: {
            model: event.synthesis.model,
            modelName: event.synthesis.model_name,
            provider: event.synthesis.provider,
            simulated: event.synthesis.simulated,
          },
          credits: event.synthesis.credits,
        },
        resultMessageId: event.message.id,
        passages: passagesByNumber(run.passages, event.citations),
        critic:
          run.critic ??
          (event.critic_score === null
            ? null
            : {
                callId: null,
                score: event.critic_score,
                bar: CRITIC_SCORE_BAR,
                verdict: event.critic_score >= CRITIC_SCORE_BAR ? "approve" : "revise",
                draftScores: {},
                reviseStepIds: [],
              }),
        totalCredits: event.total_credits,
        inputTokens: event.input_tokens,
        outputTokens: event.output_tokens,
        durationMs: event.duration_ms,
        finishedAt: event.at,
        lanes: run.lanes.map((l) => (l.status === "running" ? { ...l, status: "stopped" } : l)),
      };
    case "run.failed":
      return {
        ...run,
        status: "failed",
        error: { code: event.code, message: event.message },
        refusal: event.limit
          ? {
              limit: event.limit,
              available: event.available ?? null,
              required: event.required ?? null,
            }
          : null,
        ...stoppedAt(run, event.at, event.total_credits),
      };
    case "run.planned":
      return {
        ...run,
        status: isRunActive(run.status) ? "planned" : run.status,
        review: { id: event.review_id, expiresAt: event.expires_at },
      };
    case "plan.started":
      return {
        ...run,
        status: isRunActive(run.status) ? "running" : run.status,
        plan: event.plan,
        planDraft: null,
        review: null,
      };
    case "lane.steered":
      return {
        ...run,
        lanes: run.lanes.map((l) =>
          l.stepId === event.lane && l.kind === "agent" && l.rerunOf === null
            ? event.action === "skip"
              ? { ...l, skipped: true }
              : { ...l, steerNotes: [...(l.steerNotes ?? []), event.note] }
            : l,
        ),
      };
    case "message.queued":
      if (run.queued?.some((q) => q.id === event.queued_id)) return run;
      return { ...run, queued: [...(run.queued ?? []), { id: event.queued_id, text: event.text }] };
    case "message.taken":
      return {
        ...run,
        queued: (run.queued ?? []).map((q) =>
          event.queued_ids.includes(q.id) ? { ...q, takenBefore: event.before_step } : q,
        ),
      };
    case "run.resumed":
      // The calls cut off by the stop end here; they start again in new lanes.
      return {
        ...run,
        resumes: event.attempt,
        lanes: run.lanes.map((l) => (l.status === "running" ? { ...l, status: "stopped" } : l)),
        toolCalls: run.toolCalls.map((c) =>
          c.status === "running" || c.status === "awaiting_approval"
            ? { ...c, status: "failed", error: TOOL_CUT_OFF }
            : c,
        ),
      };
    case "tool.call":
    case "tool.approval":
    case "tool.approval.decided":
    case "tool.result":
      return applyToolEvent(run, event);
    case "run.cancelled":
      return {
        ...run,
        status: "cancelled",
        cancelReason: event.reason,
        ...stoppedAt(run, event.at, event.total_credits),
      };
    case "credits.changed": {
      const isFinal = run.final?.callId === event.call_id;
      if (run.answers.some((a) => a.callId === event.call_id)) {
        return {
          ...run,
          answers: run.answers.map((a) =>
            a.callId === event.call_id ? { ...a, credits: event.credits } : a,
          ),
        };
      }
      if (isRerunCall(run, event.call_id)) {
        // A re-run's charge is its own: the run's total stays what the run spent.
        return {
          ...run,
          lanes: updateLane(run, event.call_id, (lane) => ({ ...lane, credits: event.credits })),
        };
      }
      return {
        ...run,
        totalCredits: event.run_credits,
        lanes: updateLane(run, event.call_id, (lane) => ({ ...lane, credits: event.credits })),
        final: isFinal && run.final ? { ...run.final, credits: event.credits } : run.final,
      };
    }
  }
  return run;
}

/** A tool call whose lane a server stop cut off: the resumed lane calls again. */
export const TOOL_CUT_OFF = "Cut off when the server stopped; the step asks again.";

type ToolEvent = Extract<
  TRunEvent,
  { type: "tool.call" | "tool.approval" | "tool.approval.decided" | "tool.result" }
>;

function upsertToolCall(
  calls: ToolCallView[],
  event: ToolEvent,
  update: (call: ToolCallView) => ToolCallView,
): ToolCallView[] {
  const known = calls.find((c) => c.toolCallId === event.tool_call_id);
  const base: ToolCallView = known ?? {
    toolCallId: event.tool_call_id,
    callId: event.call_id,
    stepId: event.step_id,
    kind: event.kind,
    tool: event.tool,
    title: event.tool,
    serverName: null,
    risk: "read",
    args: null,
    status: "running",
    durationMs: null,
    outputChars: null,
    truncated: false,
    credits: null,
    preview: null,
    error: null,
    approvalId: null,
    approvedBy: null,
  };
  const next = update(base);
  return known ? calls.map((c) => (c === known ? next : c)) : [...calls, next];
}

/** Tool calls in their lanes, and the approval cards of those that wait (decision 059). */
function applyToolEvent(run: RunView, event: ToolEvent): RunView {
  switch (event.type) {
    case "tool.call":
      return {
        ...run,
        toolCalls: upsertToolCall(run.toolCalls, event, (call) => ({
          ...call,
          title: event.title,
          serverName: event.source.server_name ?? null,
          risk: event.risk,
          args: event.args,
          status: "running",
        })),
      };
    case "tool.approval": {
      const approval: ApprovalView = {
        id: event.approval_id,
        toolCallId: event.tool_call_id,
        callId: event.call_id,
        stepId: event.step_id,
        tool: event.tool,
        title: run.toolCalls.find((c) => c.toolCallId === event.tool_call_id)?.title ?? event.tool,
        serverName: event.source.server_name ?? null,
        risk: event.risk,
        args: event.args,
        reason: event.reason,
        expiresAt: event.expires_at,
        status: "pending",
        byName: null,
        note: null,
        always: false,
        decidedAt: null,
      };
      // A resumed lane asks again with the same request: one card, now in the new lane.
      const known = run.approvals.some((a) => a.id === approval.id);
      return {
        ...run,
        approvals: known
          ? run.approvals.map((a) => (a.id === approval.id ? { ...a, ...approval } : a))
          : [...run.approvals, approval],
        toolCalls: upsertToolCall(run.toolCalls, event, (call) => ({
          ...call,
          risk: event.risk,
          args: event.args,
          serverName: event.source.server_name ?? call.serverName,
          status: "awaiting_approval",
          approvalId: event.approval_id,
        })),
      };
    }
    case "tool.approval.decided":
      return {
        ...run,
        approvals: withDecision(run.approvals, event.approval_id, () => ({
          status: event.decision,
          byName: event.by_name,
          note: event.note,
          always: event.always,
          args: event.args,
          decidedAt: event.at,
        })),
        toolCalls: upsertToolCall(run.toolCalls, event, (call) => ({
          ...call,
          args: event.args,
          status: event.decision === "approved" ? "running" : "denied",
          error: event.decision === "approved" ? null : event.note,
          approvedBy: event.decision === "approved" ? event.by_name : null,
        })),
      };
    case "tool.result":
      return {
        ...run,
        toolCalls: upsertToolCall(run.toolCalls, event, (call) => ({
          ...call,
          status: event.status,
          durationMs: event.duration_ms,
          outputChars: event.output_chars,
          truncated: event.truncated,
          credits: event.credits,
          preview: event.text_preview || null,
          error: event.error?.message ?? null,
          files: event.files,
        })),
      };
  }
}

/** A run that failed or was cancelled at `at`: its totals, its duration, its lanes stopped. */
function stoppedAt(
  run: RunView,
  at: string,
  totalCredits: RunView["totalCredits"],
): Pick<RunView, "totalCredits" | "finishedAt" | "durationMs" | "lanes"> {
  return {
    totalCredits,
    finishedAt: at,
    durationMs: run.createdAt ? Math.max(0, Date.parse(at) - Date.parse(run.createdAt)) : null,
    lanes: run.lanes.map((l) => (l.status === "running" ? { ...l, status: "stopped" } : l)),
  };
}

/** The approvals with one decided, from its event or from the page's own decision. */
function withDecision(
  approvals: readonly ApprovalView[],
  id: string,
  decision: (
    approval: ApprovalView,
  ) => Pick<ApprovalView, "status" | "byName" | "note" | "always" | "args" | "decidedAt">,
): ApprovalView[] {
  return approvals.map((a) => (a.id === id ? { ...a, ...decision(a) } : a));
}

/** A decision the page made itself, before its event arrives (the event agrees with it). */
export function applyApprovalDecision(
  state: ConversationState,
  decided: TToolApproval,
): ConversationState {
  const run = state.runs[decided.run_id];
  if (!run?.approvals.some((a) => a.id === decided.id)) return state;
  return {
    ...state,
    runs: {
      ...state.runs,
      [run.id]: {
        ...run,
        approvals: withDecision(run.approvals, decided.id, (a) => ({
          status: decided.status,
          byName: decided.decided_by_name,
          note: decided.note,
          always: decided.always,
          args: decided.decided_args ?? a.args,
          decidedAt: decided.decided_at ?? a.decidedAt,
        })),
      },
    },
  };
}

/** Approvals still pending that a reload found (GET …/approvals) but its events did not. */
export function mergePendingApprovals(
  state: ConversationState,
  pending: readonly TToolApproval[],
): ConversationState {
  let runs = state.runs;
  for (const approval of pending) {
    const run = runs[approval.run_id];
    if (!run || run.approvals.some((a) => a.id === approval.id)) continue;
    runs = {
      ...runs,
      [run.id]: { ...run, approvals: [...run.approvals, approvalViewOf(approval)] },
    };
  }
  return runs === state.runs ? state : { ...state, runs };
}

function upsertAnswer(
  answers: AnswerVersionView[],
  event: Extract<TRunEvent, { type: "final.version" }>,
): AnswerVersionView[] {
  const known = answers.find((a) => a.callId === event.call_id);
  const ended = event.status !== "running";
  const next: AnswerVersionView = {
    callId: event.call_id,
    rerunCallId: event.rerun_call_id,
    stepId: event.rerun_step_id,
    version: event.version,
    text: known?.text ?? "",
    status: event.status,
    ref: {
      model: event.model,
      modelName: event.model_name,
      provider: event.provider,
      simulated: event.simulated,
    },
    credits: ended ? event.credits : null,
    error: event.error,
  };
  return known ? answers.map((a) => (a === known ? next : a)) : [...answers, next];
}

function answerStreaming(run: RunView, callId: string): boolean {
  return run.answers.some((a) => a.callId === callId && a.status === "running");
}

function isRerunCall(run: RunView, callId: string): boolean {
  return run.lanes.some((l) => l.callId === callId && l.rerunOf !== null);
}

/**
 * Events a run taken as stored still needs: those of a step's re-run (decision 031), which
 * happen after the run ended.
 */
function isRerunEvent(run: RunView, event: TRunEvent): boolean {
  switch (event.type) {
    case "agent.started":
      return event.rerun_of !== undefined && !run.lanes.some((l) => l.callId === event.call_id);
    case "agent.delta":
    case "agent.done":
    case "step.passages":
      // Only while it streams: a re-run taken as stored already has its whole text.
      return run.lanes.some(
        (l) => l.callId === event.call_id && l.rerunOf !== null && l.status === "running",
      );
    case "credits.changed":
      return isRerunCall(run, event.call_id) || run.answers.some((a) => a.callId === event.call_id);
    case "final.version":
      return (
        !run.answers.some((a) => a.callId === event.call_id) || answerStreaming(run, event.call_id)
      );
    case "final.delta":
      return event.rerun_call_id !== undefined && answerStreaming(run, event.call_id);
    case "critic.verdict":
      return event.rerun_call_id !== undefined;
    default:
      return false;
  }
}

/** Applies events (already deduped and in seq order) to the conversation. */
export function applyRunEvents(
  state: ConversationState,
  events: readonly TRunEvent[],
): ConversationState {
  let { messages, runs } = state;
  let changed = false;
  for (const event of events) {
    const current = runs[event.run_id];
    if (current?.settled && !isRerunEvent(current, event)) continue;
    const run = current ?? emptyRun(event.run_id);
    const next = applyToRun(run, event);
    if (next !== run || !current) {
      runs = { ...runs, [event.run_id]: next };
      changed = true;
    }
    if (event.type === "run.started" || event.type === "run.completed") {
      messages = upsertMessage(messages, event.message);
      changed = true;
    }
  }
  return changed ? { messages, runs } : state;
}

/** The user's message as sent, before the server's events confirm it. */
export function addSentMessage(
  state: ConversationState,
  sent: { runId: string; messageId: string; sessionId: string; content: string; at: string },
): ConversationState {
  const run = state.runs[sent.runId] ?? {
    ...emptyRun(sent.runId),
    messageId: sent.messageId,
    createdAt: sent.at,
  };
  const message: TChatMessage = state.messages.find((m) => m.id === sent.messageId) ?? {
    id: sent.messageId,
    session_id: sent.sessionId,
    role: "user",
    content: sent.content,
    run_id: sent.runId,
    created_at: sent.at,
  };
  return {
    messages: upsertMessage(state.messages, message),
    runs: { ...state.runs, [sent.runId]: run },
  };
}

export interface TimelineEntry {
  message: TChatMessage | null;
  run: RunView | null;
  /** A later run of the same message (regenerated): shown under it, without repeating it. */
  again: boolean;
}

/**
 * The conversation in order: each user message with the runs it started (a regenerated
 * answer is a second run of the same message, decision 031). An assistant message shows
 * inside its run (as the final answer); one without a run stands alone.
 */
export function timelineOf(state: ConversationState): TimelineEntry[] {
  const runsByMessage = new Map<string, RunView[]>();
  const resultIds = new Set<string>();
  const byCreation = Object.values(state.runs).sort((a, b) =>
    (a.createdAt ?? "").localeCompare(b.createdAt ?? ""),
  );
  for (const run of byCreation) {
    if (run.messageId)
      runsByMessage.set(run.messageId, [...(runsByMessage.get(run.messageId) ?? []), run]);
    if (run.resultMessageId) resultIds.add(run.resultMessageId);
  }
  const entries: TimelineEntry[] = [];
  const shown = new Set<string>();
  for (const message of state.messages) {
    if (message.role === "assistant") {
      if (!resultIds.has(message.id) && !(message.run_id && state.runs[message.run_id])) {
        entries.push({ message, run: null, again: false });
      }
      continue;
    }
    const runs = runsByMessage.get(message.id) ?? [];
    if (runs.length === 0) entries.push({ message, run: null, again: false });
    runs.forEach((run, index) => {
      shown.add(run.id);
      entries.push({ message: index === 0 ? message : null, run, again: index > 0 });
    });
  }
  // Runs whose message is not known yet (an event that came before the detail).
  for (const run of byCreation) {
    if (!shown.has(run.id)) entries.push({ message: null, run, again: false });
  }
  return entries;
}

/** A plan step's versions (decision 031): its first call, then its re-runs in order. */
export function stepVersions(run: RunView, first: LaneView): LaneView[] {
  return [
    first,
    ...run.lanes
      .filter((l) => l.kind === "agent" && l.rerunOf === first.callId)
      .sort((a, b) => a.version - b.version),
  ];
}

/** The Critic's review of a re-run, when it asked for one. */
export function rerunReviewOf(run: RunView, rerun: LaneView): LaneView | null {
  return run.lanes.find((l) => l.kind === "critic" && l.rerunOf === rerun.callId) ?? null;
}

/** True while a re-run of one of the run's steps (or an answer written again) is streaming. */
export function rerunGoing(run: RunView): boolean {
  return (
    run.lanes.some((l) => l.rerunOf !== null && l.status === "running") ||
    run.answers.some((a) => a.status === "running")
  );
}

/** The answers written with a re-run version of a step, oldest first. */
export function answersWith(run: RunView, rerunCallId: string): AnswerVersionView[] {
  return run.answers.filter((a) => a.rerunCallId === rerunCallId);
}

export function activeRunOf(state: ConversationState): RunView | null {
  return Object.values(state.runs).find((run) => isRunActive(run.status)) ?? null;
}

export type PlanStepState = "pending" | "running" | "done" | "failed" | "stopped" | "skipped";

/** A plan step's state from the lanes that work on it (a revision counts once done). */
export function planStepState(run: RunView, stepId: string): PlanStepState {
  const lanes = run.lanes.filter((l) => l.stepId === stepId && l.rerunOf === null);
  if (lanes.length === 0) {
    return isRunActive(run.status) ? "pending" : run.status === "completed" ? "skipped" : "stopped";
  }
  if (lanes.some((l) => l.status === "running")) return "running";
  // The step's draft is its last agent call: a run resumed after a server stop calls again
  // for a step whose first call the stop cut off.
  const draft = lanes.findLast((l) => l.kind !== "revision") ?? lanes[0];
  if (draft?.status === "failed") return "failed";
  if (draft?.status === "stopped") return "stopped";
  return "done";
}

import {
  CRITIC_SCORE_BAR,
  isRunActive,
  type TAgentRole,
  type TChatMessage,
  type TRun,
  type TRunError,
  type TRunEvent,
  type TRunMode,
  type TRunPlanView,
  type TRunStatus,
  type TSessionDetailResponse,
} from "@cohort/contracts";

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
}

export interface CriticView {
  callId: string | null;
  score: number | null;
  bar: number;
  verdict: "approve" | "revise" | "unscored";
  draftScores: Record<string, number>;
  reviseStepIds: string[];
}

export interface FinalView {
  text: string;
  callId: string | null;
  ref: ModelRef | null;
  credits: number | null;
}

export interface RunView {
  id: string;
  messageId: string | null;
  status: TRunStatus;
  mode: TRunMode | null;
  coordinatorModel: string | null;
  plan: TRunPlanView | null;
  planCredits: number | null;
  planRepaired: boolean;
  lanes: LaneView[];
  critic: CriticView | null;
  final: FinalView | null;
  resultMessageId: string | null;
  totalCredits: number;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
  error: TRunError | null;
  cancelReason: "user" | "shutdown" | null;
  createdAt: string | null;
  finishedAt: string | null;
  /** Built from the stored run: later events for it are old news. */
  settled: boolean;
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
    resultMessageId: null,
    totalCredits: 0,
    inputTokens: null,
    outputTokens: null,
    durationMs: null,
    error: null,
    cancelReason: null,
    createdAt: null,
    finishedAt: null,
    settled: false,
  };
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
      status: s.status === "running" ? "stopped" : s.status,
      inputTokens: s.input_tokens,
      outputTokens: s.output_tokens,
      credits: s.credits,
      latencyMs: s.latency_ms,
      error: s.error,
    }));
  const plan = run.steps.find((s) => s.kind === "plan");
  const synthesis = run.steps.find((s) => s.kind === "synthesis");
  const criticLane = lanes.find((l) => l.kind === "critic");
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
            draftScores: {},
            reviseStepIds: revised,
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
  };
}

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
    } else {
      runs[run.id] = runFromSnapshot(run, detail.messages);
      // A run queued without events yet: its events are all still to come.
      if (isRunActive(run.status)) runs[run.id] = { ...(runs[run.id] as RunView), settled: false };
    }
  }
  return { state: { messages: [...detail.messages], runs }, afterSeq };
}

function updateLane(
  run: RunView,
  callId: string,
  update: (lane: LaneView) => LaneView,
): LaneView[] {
  return run.lanes.map((lane) => (lane.callId === callId ? update(lane) : lane));
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
    case "run.plan":
      return {
        ...run,
        status: isRunActive(run.status) ? "running" : run.status,
        plan: event.plan,
        planCredits: event.credits,
        planRepaired: event.repaired,
      };
    case "agent.started": {
      if (run.lanes.some((l) => l.callId === event.call_id)) return run;
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
      };
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
          inputTokens: event.input_tokens,
          outputTokens: event.output_tokens,
          credits: event.credits,
          latencyMs: event.latency_ms,
          error: event.error,
        })),
      };
    case "critic.verdict":
      return {
        ...run,
        critic: {
          callId: event.call_id,
          score: event.score,
          bar: event.bar,
          verdict: event.verdict,
          draftScores: event.draft_scores,
          reviseStepIds: event.revise_step_ids,
        },
      };
    case "final.delta":
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
        totalCredits: event.total_credits,
        finishedAt: event.at,
        durationMs: run.createdAt
          ? Math.max(0, Date.parse(event.at) - Date.parse(run.createdAt))
          : null,
        lanes: run.lanes.map((l) => (l.status === "running" ? { ...l, status: "stopped" } : l)),
      };
    case "run.cancelled":
      return {
        ...run,
        status: "cancelled",
        cancelReason: event.reason,
        totalCredits: event.total_credits,
        finishedAt: event.at,
        durationMs: run.createdAt
          ? Math.max(0, Date.parse(event.at) - Date.parse(run.createdAt))
          : null,
        lanes: run.lanes.map((l) => (l.status === "running" ? { ...l, status: "stopped" } : l)),
      };
    case "credits.changed": {
      const isFinal = run.final?.callId === event.call_id;
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

/** Applies events (already deduped and in seq order) to the conversation. */
export function applyRunEvents(
  state: ConversationState,
  events: readonly TRunEvent[],
): ConversationState {
  let { messages, runs } = state;
  let changed = false;
  for (const event of events) {
    const current = runs[event.run_id];
    if (current?.settled) continue;
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
}

/**
 * The conversation in order: each user message with the run it started. An assistant
 * message shows inside its run (as the final answer); one without a run stands alone.
 */
export function timelineOf(state: ConversationState): TimelineEntry[] {
  const runByMessage = new Map<string, RunView>();
  const resultIds = new Set<string>();
  for (const run of Object.values(state.runs)) {
    if (run.messageId) runByMessage.set(run.messageId, run);
    if (run.resultMessageId) resultIds.add(run.resultMessageId);
  }
  const entries: TimelineEntry[] = [];
  const shown = new Set<string>();
  for (const message of state.messages) {
    if (message.role === "assistant") {
      if (!resultIds.has(message.id) && !(message.run_id && state.runs[message.run_id])) {
        entries.push({ message, run: null });
      }
      continue;
    }
    const run = runByMessage.get(message.id) ?? null;
    if (run) shown.add(run.id);
    entries.push({ message, run });
  }
  // Runs whose message is not known yet (an event that came before the detail).
  for (const run of Object.values(state.runs)) {
    if (!shown.has(run.id)) entries.push({ message: null, run });
  }
  return entries;
}

export function activeRunOf(state: ConversationState): RunView | null {
  return Object.values(state.runs).find((run) => isRunActive(run.status)) ?? null;
}

export type PlanStepState = "pending" | "running" | "done" | "failed" | "stopped" | "skipped";

/** A plan step's state from the lanes that work on it (a revision counts once done). */
export function planStepState(run: RunView, stepId: string): PlanStepState {
  const lanes = run.lanes.filter((l) => l.stepId === stepId);
  if (lanes.length === 0) {
    return isRunActive(run.status) ? "pending" : run.status === "completed" ? "skipped" : "stopped";
  }
  if (lanes.some((l) => l.status === "running")) return "running";
  const first = lanes.find((l) => l.kind !== "revision") ?? lanes[0];
  if (first?.status === "failed") return "failed";
  if (first?.status === "stopped") return "stopped";
  return "done";
}

import {
  CHAT_MESSAGE_MAX,
  DEFAULT_COORDINATOR_MODEL,
  ERROR_CODES,
  OPENAI_API_MESSAGES,
  RUN_ERROR_CODES,
  SESSION_TITLE_MAX,
  type TCohortRunSummary,
  type TRun,
} from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { markSessionUnattended } from "../approvals/session-tool-rules";
import type { GatewayMessage } from "../models/gateway";
import type { RunEnd } from "../orchestration/follow-run";
import {
  followRunToEnd,
  type Orchestration,
  startRunInNewSession,
} from "../orchestration/run-in-new-session";
import { getRun } from "../orchestration/run-store";
import { addMessage } from "../sessions/add-message";
import type { CompletionEnd, CompletionOutput } from "./complete-with-model";
import { invalidParam } from "./openai-error";

export interface TeamRunInput {
  principal: Principal;
  system: string | undefined;
  messages: GatewayMessage[];
  clientGone: AbortSignal;
  /** The web app's address, for the session's link. */
  publicUrl: string;
}

export interface TeamRunEnd extends CompletionEnd {
  cohort: TCohortRunSummary;
  /** The run failed or was stopped: what to tell the caller (after `open`, in the stream). */
  failure: AppError | null;
}

interface Task {
  title: string;
  content: string;
  history: GatewayMessage[];
}

/** The last user message is the task (after the instructions); what came before, its history. */
function taskOf(system: string | undefined, messages: readonly GatewayMessage[]): Task {
  const last = messages.findLastIndex((m) => m.role === "user" && m.content.trim());
  const request = (messages[last] as GatewayMessage).content.trim();
  const content = system ? `${system}\n\n${request}` : request;
  if (content.length > CHAT_MESSAGE_MAX) {
    throw invalidParam("messages", OPENAI_API_MESSAGES.taskTooLong(CHAT_MESSAGE_MAX));
  }
  const line = request.replace(/\s+/g, " ");
  const title =
    line.length <= SESSION_TITLE_MAX ? line : `${line.slice(0, SESSION_TITLE_MAX - 1).trimEnd()}…`;
  return { title, content, history: messages.slice(0, last).filter((m) => m.content.trim()) };
}

/** Where a session's own page is: the chat screen with the session open. */
export const sessionUrl = (publicUrl: string, sessionId: string) =>
  `${publicUrl}/chat/${sessionId}`;

export function summarizeRun(run: TRun, url: string): TCohortRunSummary {
  return {
    session_id: run.session_id,
    session_url: url,
    run_id: run.id,
    status: run.status === "completed" || run.status === "failed" ? run.status : "cancelled",
    plan: (run.plan?.steps ?? []).map((s) => ({
      id: s.id,
      role: s.role,
      task: s.task,
      model: s.model,
    })),
    agents: run.steps.map((s) => ({
      role: s.role,
      kind: s.kind,
      model: s.model,
      status: s.status,
      input_tokens: s.input_tokens,
      output_tokens: s.output_tokens,
      credits: s.credits,
    })),
    total_credits: run.total_credits,
    critic_score: run.critic_score,
  };
}

/** A run that did not complete, as the API's error: out of credits is a 402 like any other. */
function failureOf(end: RunEnd): AppError | null {
  if (end.type === "run.completed") return null;
  if (end.type === "run.cancelled") {
    return new AppError(ERROR_CODES.unavailable, 503, OPENAI_API_MESSAGES.runCancelled);
  }
  const status =
    end.code === ERROR_CODES.insufficientCredits || end.code === RUN_ERROR_CODES.budgetExceeded
      ? 402
      : 502;
  return new AppError(end.code, status, OPENAI_API_MESSAGES.runFailed(end.message));
}

/**
 * `cohort-team`: a new session for the token's owner (in the web app's list like any other),
 * the request's earlier turns as its history, and a full run of the task through the run
 * engine — the same start (and 402 for the planning call's hold) as POST /api/ai/chat. The
 * final answer streams as it is written; the client leaving stops the run, which releases
 * its holds.
 */
export async function runTeam(
  orchestration: Orchestration,
  input: TeamRunInput,
  output: CompletionOutput,
): Promise<TeamRunEnd> {
  const { deps } = orchestration;
  const task = taskOf(input.system, input.messages);
  const started = await startRunInNewSession(orchestration, input.principal, {
    title: task.title,
    description: "Started through the API (/api/v1, model cohort-team).",
    task: task.content,
    async prepare(sessionId) {
      // Nobody can answer an approval request here: such calls are denied (decision 059).
      await markSessionUnattended(deps.db, sessionId, "api");
      for (const turn of task.history) {
        await addMessage(deps.db, { sessionId, ...turn, runId: null });
      }
    },
  });
  // The team's coordinator decides the answer's wording: simulated when it is (decision 053).
  const simulated = deps.models.resolve(DEFAULT_COORDINATOR_MODEL)?.simulated ?? false;
  output.open(simulated);
  let streamed = "";
  const { end, denied } = await followRunToEnd(orchestration, started, {
    signal: input.clientGone,
    onEvent(event) {
      if (event.type === "final.delta" && !event.rerun_call_id) {
        streamed += event.text;
        output.text(event.text);
      }
    },
  });
  const run = (await getRun(deps.db, started.runId)) as TRun;
  const text = end.type === "run.completed" ? end.message.content : streamed;
  if (text.length > streamed.length && text.startsWith(streamed)) {
    output.text(text.slice(streamed.length));
  }
  return {
    text,
    finishReason: "stop",
    usage: { inputTokens: run.input_tokens, outputTokens: run.output_tokens },
    simulated,
    cohort: {
      ...summarizeRun(run, sessionUrl(input.publicUrl, started.sessionId)),
      ...(denied.length > 0 ? { tools_denied: denied } : {}),
    },
    failure: failureOf(end),
  };
}

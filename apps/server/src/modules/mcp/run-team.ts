import {
  SESSION_TITLE_MAX,
  type TMcpRunTeamInput,
  type TMcpRunTeamOutput,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { Principal } from "../../platform/auth";
import { markSessionUnattended } from "../approvals/session-tool-rules";
import type { RunEnd } from "../orchestration/follow-run";
import { followRunToEnd, startRunInNewSession } from "../orchestration/run-in-new-session";
import { runProgressMessage } from "./run-progress";

const SESSION_DESCRIPTION = "Started from an MCP client (run_team).";

/** The task's first line as the session's title, cut to fit. */
export function titleOf(task: string): string {
  const line = (task.split("\n").find((l) => l.trim().length > 0) ?? task).trim();
  return line.length <= SESSION_TITLE_MAX ? line : `${line.slice(0, SESSION_TITLE_MAX - 1)}…`;
}

export function sessionUrl(app: FastifyInstance, sessionId: string): string {
  return `${app.config.publicUrl}/chat/${sessionId}`;
}

export interface RunTeamHooks {
  /** Aborts when the client cancels the call or goes away: the run is stopped. */
  signal: AbortSignal;
  onProgress(message: string): void;
  /** The caller's documents to attach to the new session before the run starts. */
  attachDocuments(sessionId: string, documentIds: readonly string[]): Promise<void>;
}

/**
 * `run_team`: a new session of the token's owner with the task as its first message, a full
 * run on it, followed until it ends (orchestration's run-in-new-session.ts). A cancelled call
 * stops the run, which releases its unspent holds.
 */
export async function runTeam(
  app: FastifyInstance,
  principal: Principal,
  input: TMcpRunTeamInput,
  hooks: RunTeamHooks,
): Promise<TMcpRunTeamOutput> {
  const run = await startRunInNewSession(app.orchestration, principal, {
    title: titleOf(input.task),
    description: SESSION_DESCRIPTION,
    task: input.task,
    async prepare(sessionId) {
      // Nobody can answer an approval request here: such calls are denied (decision 059).
      await markSessionUnattended(app.db, sessionId, "mcp");
      if (input.document_ids && input.document_ids.length > 0) {
        await hooks.attachDocuments(sessionId, input.document_ids);
      }
    },
  });
  let answerStarted = false;
  const { end, denied } = await followRunToEnd(app.orchestration, run, {
    signal: hooks.signal,
    onEvent(event) {
      const message = runProgressMessage(event, answerStarted);
      if (event.type === "final.delta") answerStarted = true;
      if (message) hooks.onProgress(message);
    },
  });
  const output = outputOf(end, sessionUrl(app, run.sessionId));
  return denied.length > 0 ? { ...output, tools_denied: denied } : output;
}

function outputOf(end: RunEnd, runUrl: string): TMcpRunTeamOutput {
  const base = { session_id: end.session_id, run_id: end.run_id, run_url: runUrl };
  switch (end.type) {
    case "run.completed":
      return {
        ...base,
        status: "completed",
        answer: end.message.content,
        credits: end.total_credits,
        critic_score: end.critic_score,
        error: null,
      };
    case "run.failed":
      return {
        ...base,
        status: "failed",
        answer: null,
        credits: end.total_credits,
        critic_score: null,
        error: end.message,
      };
    case "run.cancelled":
      return {
        ...base,
        status: "cancelled",
        answer: null,
        credits: end.total_credits,
        critic_score: null,
        error: null,
      };
  }
}

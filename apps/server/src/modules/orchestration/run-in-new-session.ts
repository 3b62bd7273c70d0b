import { DEFAULT_COORDINATOR_MODEL, type TDeniedToolCall, type TRunEvent } from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import { createSession } from "../sessions/create-session";
import { deleteSession } from "../sessions/delete-session";
import { followRun, type RunEnd } from "./follow-run";
import type { EngineDeps } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { startRun } from "./start-run";

/**
 * A team run for a client outside the web app (an MCP client's `run_team`, the API's
 * `cohort-team`): a new session of the caller (in the web app's list like any other) with
 * the task as its first message, a full run on it (the same start, holds and engine as the
 * web app), followed until it ends. Both clients start, clean up and stop it the same way.
 */
export interface Orchestration {
  deps: EngineDeps & RunEventLogDeps;
  control: RunControl;
}

export interface NewSessionRun {
  sessionId: string;
  runId: string;
}

export async function startRunInNewSession(
  { deps, control }: Orchestration,
  principal: Principal,
  input: {
    title: string;
    description: string;
    task: string;
    /**
     * Before the run starts: what the client sets up on the session (no approvals, its
     * documents, earlier turns). A refusal here leaves no session behind.
     */
    prepare(sessionId: string): Promise<void>;
  },
): Promise<NewSessionRun> {
  const session = await createSession(deps.db, principal.user.id, {
    title: input.title,
    description: input.description,
    coordinator_model: DEFAULT_COORDINATOR_MODEL,
    manual_agent_selection: false,
    agent_preferences: null,
    budget_credits: null,
  });
  try {
    await input.prepare(session.id);
    const { run_id } = await startRun(deps, control, principal, {
      session_id: session.id,
      message: input.task,
    });
    return { sessionId: session.id, runId: run_id };
  } catch (error) {
    // Refused before anything ran (no credits, an unknown document): no empty session stays
    // behind in the user's list under the task's name.
    await deleteSession(deps.db, session.id).catch(() => undefined);
    throw error;
  }
}

/**
 * Follows the run from its new session's first event to its end, handing each event on, and
 * collects the tool calls denied for want of someone to approve them (decision 059). When
 * `signal` aborts (the client cancelled or went away) the run is stopped, which releases its
 * unspent holds, and the abort's reason is thrown.
 */
export async function followRunToEnd(
  { deps, control }: Orchestration,
  run: NewSessionRun,
  input: { signal: AbortSignal; onEvent(event: TRunEvent): void },
): Promise<{ end: RunEnd; denied: TDeniedToolCall[] }> {
  const denied: TDeniedToolCall[] = [];
  try {
    const end = await followRun(deps, {
      sessionId: run.sessionId,
      runId: run.runId,
      // A new session: its events start at 1.
      after: 0,
      signal: input.signal,
      onEvent(event) {
        if (event.type === "tool.result" && event.status === "denied") {
          denied.push({ tool: event.tool, note: event.error?.message ?? "" });
        }
        input.onEvent(event);
      },
    });
    return { end, denied };
  } catch (error) {
    // The session is new: its active run is this one.
    if (input.signal.aborted) await control.cancelSessionRun(run.sessionId);
    throw error;
  }
}

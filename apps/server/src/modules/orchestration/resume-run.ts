import { getSession } from "../sessions/find-session";
import { ancestorsOf, loadBranchTree } from "./branch-history";
import { endOrphanedRun } from "./end-orphaned-runs";
import { forkPreferences } from "./fork-run";
import { HISTORY_MESSAGES } from "./prompts";
import { type ResumePoint, resumePointOf } from "./resume-point";
import { createRunContext, type EngineDeps, type RunContext } from "./run-context";
import type { RunEventLogDeps } from "./run-events";
import { claimRun, getRun, stopRunningSteps, sumRunSteps } from "./run-store";

/**
 * A run that keeps stopping the instances it runs on (or that nobody can finish) is not
 * resumed for ever: after this many resumptions it ends as failed, its holds released.
 */
export const MAX_RUN_RESUMES = 3;

export interface TakenOverRun {
  ctx: RunContext;
  /** Absent when the run had not started yet (queued elsewhere): it starts from the top. */
  resume?: ResumePoint;
}

/**
 * Takes a run over on this instance (decision 047): claims it, stops the calls that were cut
 * off and gives back every hold it still had (they are re-reserved when the calls are made
 * again), rebuilds its context from what is stored, and tells its clients with
 * `run.resumed`. Null when there is nothing to go on with: the run had ended, is gone, or was
 * resumed too often (then it ends as failed here).
 */
export async function takeOverRun(
  deps: EngineDeps & RunEventLogDeps,
  instanceId: string,
  runId: string,
): Promise<TakenOverRun | null> {
  const { db } = deps;
  const claimed = await claimRun(db, runId, instanceId);
  if (!claimed) return null;
  if (claimed.resumeCount > MAX_RUN_RESUMES) {
    deps.log.warn({ runId, resumes: claimed.resumeCount - 1 }, "a run resumed too often ends");
    await endOrphanedRun(deps, { id: runId, sessionId: claimed.sessionId }, "failed");
    return null;
  }
  for (const holdId of await stopRunningSteps(db, runId)) {
    await deps.credits.release(holdId).catch((error: unknown) => {
      deps.log.error({ err: error, runId, holdId }, "hold of an interrupted call not released");
    });
  }
  // A hold whose call never wrote its row (the planning hold of a run not started yet).
  await deps.credits.releaseAllOf(`run:${runId}:`);
  const [run, session, tree, totals, userKeys] = await Promise.all([
    getRun(db, runId),
    getSession(db, claimed.sessionId),
    loadBranchTree(db, claimed.sessionId),
    sumRunSteps(db, runId),
    deps.loadUserKeysOf(claimed.userId),
  ]);
  const message = tree.messages.find((m) => m.id === run?.message_id);
  if (!run || !session || !message) return null;
  // A fork's note for its step's role holds when it goes on elsewhere (decision 070).
  const forked = run.fork
    ? {
        ...session,
        agent_preferences: forkPreferences(session.agent_preferences ?? {}, run.plan, run.fork),
      }
    : session;
  const ctx = createRunContext(deps, forked, {
    runId,
    userId: claimed.userId,
    mode: run.mode,
    coordinatorModel: run.coordinator_model,
    userKeys,
    message,
    // The history its message had, on its branch (decision 070).
    history: ancestorsOf(tree, message.parent_run_id ?? null)
      .slice(-HISTORY_MESSAGES)
      .map((m) => ({ role: m.role, content: m.content })),
    // A run stored without its plan plans again (its phase is where planning ends).
    status: run.plan === null && run.status !== "queued" ? "planning" : run.status,
  });
  ctx.totals = totals;
  ctx.criticScore = run.critic_score;
  if (!claimed.started) return { ctx };
  const resume = resumePointOf(run);
  deps.log.warn(
    { runId, from: run.status, reused: resume.reused, attempt: claimed.resumeCount },
    "resuming a run its instance left unfinished",
  );
  void ctx.events.append({
    type: "run.resumed",
    from_status: run.status,
    reused_steps: resume.reused,
    attempt: claimed.resumeCount,
  });
  return { ctx, resume };
}

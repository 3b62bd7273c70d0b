import { RUN_ERROR_CODES, type TRunHalt } from "@cohort/contracts";
import { runEndEvent } from "./advance-run";
import type { EngineDeps } from "./run-context";
import { createRunEventLog, type RunEventLogDeps } from "./run-events";
import {
  finishRun,
  listOrphanedRuns,
  stopOpenReruns,
  stopOrphanedReruns,
  stopRunningSteps,
  sumRunSteps,
} from "./run-store";

export const INTERRUPTED_MESSAGE =
  "The server stopped while this task was running, so it could not finish. Please send it again.";

/**
 * Ends a run that no process is running any more (its server crashed): its open calls are
 * marked stopped and their holds released, and the run fails (or, when the user asked to
 * stop it, is cancelled) with its event. Safe on every instance at once: only one ends it.
 */
export async function endOrphanedRun(
  deps: EngineDeps & RunEventLogDeps,
  run: { id: string; sessionId: string },
  ending: "failed" | "cancelled",
): Promise<boolean> {
  const totals = await sumRunSteps(deps.db, run.id);
  const end: TRunHalt =
    ending === "failed"
      ? { status: "failed", code: RUN_ERROR_CODES.interrupted, message: INTERRUPTED_MESSAGE }
      : { status: "cancelled", reason: "user" };
  const ended = await finishRun(deps.db, run.id, {
    outcome: end,
    totalCredits: totals.credits,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
  });
  if (!ended) return false;
  for (const holdId of await stopRunningSteps(deps.db, run.id)) {
    await deps.credits.release(holdId).catch((e: unknown) => {
      deps.log.error({ err: e, runId: run.id, holdId }, "hold of an interrupted run not released");
    });
  }
  // A hold whose call never wrote its row (the planning hold of a run that never started).
  await deps.credits.releaseAllOf(`run:${run.id}:`).catch((e: unknown) => {
    deps.log.error({ err: e, runId: run.id }, "holds of an interrupted run not released");
  });
  const events = createRunEventLog(deps, run.sessionId, run.id);
  await events.append(runEndEvent(end, totals.credits)).catch(() => {});
  events.close();
  return true;
}

/** Fails every orphaned run found (see listOrphanedRuns); returns how many. */
export async function endOrphanedRuns(
  deps: EngineDeps & RunEventLogDeps,
  options: { staleMs: number | null; exceptIds: readonly string[] },
): Promise<number> {
  let count = 0;
  for (const run of await listOrphanedRuns(deps.db, options)) {
    if (await endOrphanedRun(deps, run, "failed")) count++;
  }
  if (count > 0)
    deps.log.warn({ count }, "runs left running by a stopped server were marked failed");
  return count;
}

/** Ends step re-runs a crash left open (decision 031) and releases their holds. */
export async function endOrphanedReruns(
  deps: EngineDeps,
  options: { staleMs: number | null; exceptRunIds: readonly string[] },
): Promise<void> {
  for (const holdId of await stopOrphanedReruns(deps.db, options)) {
    await deps.credits.release(holdId).catch((e: unknown) => {
      deps.log.error({ err: e, holdId }, "hold of an interrupted re-run not released");
    });
  }
}

/**
 * Ends the run's re-run rows left open when this process's work on it is over (a failure
 * before the call could end its row) and releases their holds, so the run is free again.
 */
export async function endOpenReruns(deps: EngineDeps, runId: string): Promise<void> {
  const holdIds = await stopOpenReruns(deps.db, runId);
  if (holdIds.length > 0)
    deps.log.error({ runId }, "a re-run's row was left open: ended as failed");
  for (const holdId of holdIds) {
    await deps.credits.release(holdId).catch((e: unknown) => {
      deps.log.error({ err: e, holdId }, "hold of a failed re-run not released");
    });
  }
}

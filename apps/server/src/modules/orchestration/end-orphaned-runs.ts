import { RUN_ERROR_CODES, type TRunHalt } from "@cohort/contracts";
import { runEndEvent } from "./advance-run";
import type { EngineDeps } from "./run-context";
import { createRunEventLog, type RunEventLogDeps } from "./run-events";
import { finishRun, listOrphanedRuns, stopRunningSteps, sumRunSteps } from "./run-store";

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

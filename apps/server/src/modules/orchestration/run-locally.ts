import { setTimeout as sleep } from "node:timers/promises";
import { executeRun } from "./execute-run";
import type { ResumePoint } from "./resume-point";
import { takeOverRun } from "./resume-run";
import {
  type CancelReason,
  cancelled,
  type EngineDeps,
  haltRun,
  type RunContext,
} from "./run-context";
import type { RunEventLogDeps } from "./run-events";
import { touchRuns } from "./run-store";

/**
 * Every 5 s an instance's runs beat; one that has not beaten for 15 s lost its instance
 * (decision 047): the queue's side (run-control.ts) finds it by its stale beat.
 */
const HEARTBEAT_MS = 5_000;
/** How long a stop or a shutdown waits for a run to wind down. */
export const WIND_DOWN_MS = 5_000;

/**
 * The runs this process executes, and the work that follows them: each run's controller (a
 * stop aborts it), the re-runs of steps of ended runs (decision 031), the heartbeat that
 * says this instance still holds its runs, and the follow-up work a completed run starts.
 * How a run gets here (the queue, a stop from another instance, the sweep) is run-control.ts.
 */
export interface LocalRunner {
  /** Runs the run here; resolves once its work ended. */
  execute(ctx: RunContext, resume?: ResumePoint): Promise<void>;
  /** Takes over a run another instance (or this process's previous life) left, and runs it. */
  resume(runId: string): Promise<RunContext | null>;
  /** Work on an ended run (a step's re-run); one at a time per run. */
  rerun(ctx: RunContext, work: () => Promise<void>): void;
  /** True while the run executes here. */
  has(runId: string): boolean;
  /** True while a re-run of the (ended) run goes on here. */
  reruns(runId: string): boolean;
  runIds(): string[];
  rerunIds(): string[];
  /** Stops the run (or with `rerun`, its re-run) if it goes on here; false if it does not. */
  stop(runId: string, reason: CancelReason, which?: "run" | "rerun"): Promise<boolean>;
  /** A stop for a run not executing here yet: it is stopped as it starts (for a minute). */
  requestStop(runId: string): void;
  /** True once close began: a run that starts now is handed on at once. */
  readonly closing: boolean;
  /**
   * Resolves once nothing runs here, no follow-up work is pending and `elsewhere()` (work
   * queued for this process) says false.
   */
  idle(elsewhere: () => boolean): Promise<void>;
  /** Shutdown: hands the runs on, stops the re-runs, and waits for both (a few seconds). */
  close(): Promise<void>;
  /** Resolves once the follow-up work started so far has settled. */
  followUpsSettled(): Promise<void>;
}

interface LocalRun {
  ctx: RunContext;
  done: Promise<void>;
}

/** The promise's value, or undefined once `ms` passed first. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** After a completed run: the coordinator proposes memories from it (the memory module). */
async function proposeMemories(ctx: RunContext, answer: string): Promise<void> {
  await ctx.deps.memories?.propose({
    workspaceId: ctx.workspaceId,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    runId: ctx.runId,
    task: ctx.message.content,
    answer,
    coordinatorModelId: ctx.coordinatorModel,
  });
}

/**
 * This instance stops working on the run and leaves it active for another (or, with one
 * process, for the next start): its calls are stopped and their holds released, its end is
 * not written (decision 047).
 */
function handOff(ctx: RunContext): void {
  ctx.handedOff = true;
  haltRun(ctx, cancelled("shutdown"));
}

export function createLocalRunner({
  deps,
  instanceId,
}: {
  deps: EngineDeps & RunEventLogDeps;
  instanceId: string;
}): LocalRunner {
  const local = new Map<string, LocalRun>();
  /** Re-runs of steps of ended runs (decision 031), by run id: at most one per run. */
  const reruns = new Map<string, LocalRun>();
  let closing = false;

  const start = (runs: Map<string, LocalRun>, ctx: RunContext, work: () => Promise<void>) => {
    if (closing) handOff(ctx);
    const done = work().finally(() => {
      runs.delete(ctx.runId);
    });
    runs.set(ctx.runId, { ctx, done });
    return done;
  };

  /**
   * Stops asked for runs that were not executing here yet (queued, or picked up a moment
   * ago): a run in this set is stopped as it starts. Kept for a minute.
   */
  const stopRequested = new Set<string>();

  /**
   * Work a completed run starts and nobody waits for (memory proposals, decision 037): it
   * must not delay the run's end or its events, but the app's close waits for it.
   */
  const followUps = new Set<Promise<void>>();
  const followUp = (work: Promise<void>) => {
    const tracked = work
      .catch((error: unknown) => deps.log.warn({ err: error }, "a run's follow-up work failed"))
      .finally(() => followUps.delete(tracked));
    followUps.add(tracked);
  };

  const execute = (ctx: RunContext, resume?: ResumePoint) =>
    start(local, ctx, async () => {
      if (stopRequested.has(ctx.runId)) haltRun(ctx, cancelled("user"));
      const answer = await executeRun(ctx, resume);
      if (answer !== null) followUp(proposeMemories(ctx, answer));
    });

  const stop = async (runId: string, reason: CancelReason, which: "run" | "rerun" = "run") => {
    const run = (which === "run" ? local : reruns).get(runId);
    if (!run) return false;
    haltRun(run.ctx, cancelled(reason));
    await within(run.done, WIND_DOWN_MS);
    return true;
  };

  const heartbeat = setInterval(() => {
    const ids = [...local.keys()];
    void touchRuns(deps.db, ids, instanceId)
      .then((held) => {
        // A run this instance no longer holds was taken over (it looked dead to another one):
        // stop working on it, without ending it.
        for (const runId of ids) {
          const run = local.get(runId);
          if (run && !held.has(runId) && !run.ctx.handedOff) {
            deps.log.warn({ runId }, "another instance took this run over: stopping here");
            handOff(run.ctx);
          }
        }
      })
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, "run heartbeat failed");
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    execute,
    async resume(runId) {
      if (local.has(runId)) return null;
      const taken = await takeOverRun(deps, instanceId, runId);
      if (!taken) return null;
      await execute(taken.ctx, taken.resume);
      return taken.ctx;
    },
    rerun(ctx, work) {
      start(reruns, ctx, work);
    },
    has: (runId) => local.has(runId),
    reruns: (runId) => reruns.has(runId),
    runIds: () => [...local.keys()],
    rerunIds: () => [...reruns.keys()],
    stop,
    requestStop(runId) {
      stopRequested.add(runId);
      setTimeout(() => stopRequested.delete(runId), 60_000).unref();
    },
    get closing() {
      return closing;
    },
    async idle(elsewhere) {
      while (local.size > 0 || reruns.size > 0 || elsewhere() || followUps.size > 0) {
        await Promise.allSettled([...followUps]);
        if (local.size > 0 || reruns.size > 0 || elsewhere()) await sleep(20);
      }
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      // Runs still running are handed on (decision 047): the queue gives them to another
      // instance; with one process, the next start resumes them.
      for (const run of local.values()) handOff(run.ctx);
      await Promise.all([
        ...[...local.values()].map((run) => within(run.done, WIND_DOWN_MS)),
        ...[...reruns.keys()].map((runId) => stop(runId, "shutdown", "rerun")),
      ]);
    },
    async followUpsSettled() {
      await Promise.allSettled([...followUps]);
    },
  };
}

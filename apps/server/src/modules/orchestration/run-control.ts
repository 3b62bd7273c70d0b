import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { isRunActive, type TRunStatus } from "@cohort/contracts";
import type { Redis } from "ioredis";
import { endOrphanedReruns, endOrphanedRun, endOrphanedRuns } from "./end-orphaned-runs";
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
import { type RunJob, type RunQueue, startRunQueue } from "./run-queue";
import {
  claimRun,
  findActiveRun,
  listOrphanedRuns,
  type RunRef,
  runStatus,
  touchRuns,
} from "./run-store";

/**
 * Every 5 s an instance's runs beat; one that has not beaten for 15 s lost its instance, and
 * a sweep every 5 s finds it: a run is resumed within about 20–25 s of a crash (decision 047).
 */
const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 15_000;
const SWEEP_MS = 5_000;
/**
 * A re-run has no heartbeat of its own (its run has ended): one still open after this long
 * is an orphan (PostgreSQL). A re-run is one agent call and at most one review.
 */
const RERUN_STALE_MS = 15 * 60_000;
/** A run queued here and picked up by another instance is forgotten here after this. */
const PENDING_FORGET_MS = 10_000;
/** How long a stop or a shutdown waits for a run to wind down. */
const WIND_DOWN_MS = 5_000;

/**
 * The runs this process executes, and how to stop any run wherever it executes: locally by
 * aborting its controller, on another instance through Redis pub/sub. It also keeps the
 * runs' heartbeats, ends runs orphaned by a crash, and stops every run on shutdown.
 */
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

export interface RunControl {
  readonly instanceId: string;
  /** Starts a run; with `resume`, from stored calls (a fork's kept steps, decision 070). */
  launch(ctx: RunContext, resume?: ResumePoint): void;
  /**
   * Work on an ended run (a step's re-run, decision 031): stopped like a run by its stop
   * request and on shutdown; one at a time per run in this process.
   */
  launchRerun(ctx: RunContext, work: () => Promise<void>): void;
  /** True while this process runs work on the run. */
  busy(runId: string): boolean;
  /** Stops the run; resolves with its status once it ended (or after a few seconds). */
  cancel(run: RunRef): Promise<TRunStatus>;
  /** Stops the session's active run, if any (before deleting or closing the session). */
  cancelSessionRun(sessionId: string): Promise<void>;
  activeRunIds(): string[];
  /**
   * Resolves once this process runs nothing and no run's follow-up work (memory proposals)
   * is pending: what a test or a drain waits for before looking at what runs left behind.
   */
  idle(): Promise<void>;
  /** Start-up: ends runs a crash left active. */
  recover(): Promise<void>;
  /** Shutdown: stops every local run cleanly, then the timers and the subscription. */
  close(): Promise<void>;
}

export interface RunControlOptions {
  deps: EngineDeps & RunEventLogDeps;
  /** Multi-instance: publish stops here, and listen for those of other instances. */
  redis?: { pub: Redis; channel: string } | undefined;
  /**
   * PostgreSQL: runs are dispatched through the job queue (decision 047); `task` names this
   * app's jobs. Absent (PGlite): runs start in this process, and a restart resumes them.
   */
  queue?: { connectionString: string; task: string; concurrency: number } | undefined;
}

/** Thrown to the queue when this instance handed a run on: the queue gives it to another. */
class HandedOn extends Error {
  constructor(runId: string) {
    super(`run ${runId} handed on to another instance`);
    this.name = "HandedOn";
  }
}

interface LocalRun {
  ctx: RunContext;
  done: Promise<void>;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function createRunControl(options: RunControlOptions): Promise<RunControl> {
  const { deps, redis } = options;
  const instanceId = randomUUID();
  const local = new Map<string, LocalRun>();
  /** Runs this instance queued, kept until a worker picks them up (here, usually). */
  const pending = new Map<string, RunContext>();
  /** A queued run's resume point, when it starts from stored calls (a fork, decision 070). */
  const pendingResume = new Map<string, ResumePoint>();
  let closing = false;

  /** Re-runs of steps of ended runs (decision 031), by run id: at most one per run. */
  const reruns = new Map<string, LocalRun>();
  const start = (runs: Map<string, LocalRun>, ctx: RunContext, work: () => Promise<void>) => {
    if (closing) handOff(ctx);
    const done = work().finally(() => {
      runs.delete(ctx.runId);
    });
    runs.set(ctx.runId, { ctx, done });
    return done;
  };

  /**
   * This instance stops working on the run and leaves it active for another (or, with one
   * process, for the next start): its calls are stopped and their holds released, its end is
   * not written (decision 047).
   */
  function handOff(ctx: RunContext): void {
    ctx.handedOff = true;
    haltRun(ctx, cancelled("shutdown"));
  }

  /**
   * Stops asked for runs that were not executing here yet (queued, or picked up a moment
   * ago): a run in this set is stopped as it starts. Kept for a minute.
   */
  const stopRequested = new Set<string>();
  const requestStop = (runId: string) => {
    stopRequested.add(runId);
    setTimeout(() => stopRequested.delete(runId), 60_000).unref();
  };

  const execute = (ctx: RunContext, resume?: ResumePoint) =>
    start(local, ctx, async () => {
      if (stopRequested.has(ctx.runId)) haltRun(ctx, cancelled("user"));
      const answer = await executeRun(ctx, resume);
      if (answer !== null) followUp(proposeMemories(ctx, answer));
    });

  /** Takes over a run another instance (or this process's previous life) left, and runs it. */
  async function resumeHere(runId: string): Promise<RunContext | null> {
    if (local.has(runId)) return null;
    const taken = await takeOverRun(deps, instanceId, runId);
    if (!taken) return null;
    await execute(taken.ctx, taken.resume);
    return taken.ctx;
  }

  /** The queue's worker: the run starts (or goes on) here, and the job lasts as long. */
  async function handleJob(job: RunJob): Promise<void> {
    const mine = pending.get(job.runId);
    const resume = pendingResume.get(job.runId);
    pending.delete(job.runId);
    pendingResume.delete(job.runId);
    let ran: RunContext | null = null;
    if (!mine) {
      ran = await resumeHere(job.runId);
    } else if (await claimRun(deps.db, job.runId, instanceId)) {
      // Still active (a stop may have ended it in the queue) and this instance's.
      ran = mine;
      await execute(mine, resume);
    }
    if (ran?.handedOff) throw new HandedOn(job.runId);
  }

  let queue: RunQueue | null = null;
  if (options.queue) {
    try {
      queue = await startRunQueue({
        ...options.queue,
        log: deps.log,
        handle: (job) => handleJob(job),
      });
    } catch (error) {
      // Runs still start here; a crash's runs are then ended by the sweep, not resumed.
      deps.log.error({ err: error }, "the run queue could not start: runs run where they start");
    }
  }

  const stopLocal = async (runId: string, reason: CancelReason, runs = local) => {
    const run = runs.get(runId);
    if (!run) return false;
    haltRun(run.ctx, cancelled(reason));
    await within(run.done, WIND_DOWN_MS);
    return true;
  };

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

  let subscriber: Redis | undefined;
  if (redis) {
    // A subscribed connection can do nothing else: a duplicate of the command connection.
    subscriber = redis.pub.duplicate({ connectionName: "cohort:runs", enableReadyCheck: false });
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== redis.channel) return;
      const runId = (JSON.parse(message) as { runId?: string }).runId;
      if (!runId) return;
      if (local.has(runId)) void stopLocal(runId, "user");
      else requestStop(runId);
    });
    void subscriber.subscribe(redis.channel).catch((error: unknown) => {
      deps.log.error({ err: error }, "could not subscribe to run stops");
    });
  }

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

  /**
   * Runs whose instance stopped beating (PostgreSQL: other instances may crash while this
   * one runs). With the queue: a job its dead worker still holds is freed for a live one, a
   * run without a job gets one (it is resumed, or ended if it cannot be). Without: it ends.
   */
  async function sweep(): Promise<void> {
    const except = [...local.keys(), ...pending.keys()];
    if (!queue) {
      await endOrphanedRuns(deps, { staleMs: STALE_AFTER_MS, exceptIds: except });
    } else {
      for (const run of await listOrphanedRuns(deps.db, {
        staleMs: STALE_AFTER_MS,
        exceptIds: except,
      })) {
        const holder = await queue.holder(run.id);
        if (holder === null) continue;
        deps.log.warn({ runId: run.id }, "a run's instance stopped: the run goes to another");
        if (holder === undefined) await queue.add(run.id, "sweep");
        else await queue.unlock(holder);
      }
    }
    await endOrphanedReruns(deps, { staleMs: RERUN_STALE_MS, exceptRunIds: [...reruns.keys()] });
  }
  const sweeper =
    deps.db.kind === "postgres"
      ? setInterval(() => {
          void sweep().catch((error: unknown) =>
            deps.log.warn({ err: error }, "orphaned run sweep failed"),
          );
        }, SWEEP_MS)
      : undefined;
  sweeper?.unref();

  async function waitUntilEnded(runId: string): Promise<TRunStatus> {
    const deadline = Date.now() + WIND_DOWN_MS;
    for (;;) {
      const status = (await runStatus(deps.db, runId)) ?? "cancelled";
      if (!isRunActive(status) || Date.now() > deadline) return status;
      await sleep(50);
    }
  }

  const control: RunControl = {
    instanceId,
    launch(ctx, resume) {
      if (!queue || closing) {
        void execute(ctx, resume);
        return;
      }
      pending.set(ctx.runId, ctx);
      if (resume) pendingResume.set(ctx.runId, resume);
      setTimeout(() => {
        pending.delete(ctx.runId);
        pendingResume.delete(ctx.runId);
      }, PENDING_FORGET_MS).unref();
      queue.add(ctx.runId, instanceId).catch((error: unknown) => {
        // The queue is out of reach: the run goes on here rather than waiting for it.
        deps.log.warn({ err: error, runId: ctx.runId }, "run not queued: it runs here");
        if (pending.delete(ctx.runId)) void execute(ctx, pendingResume.get(ctx.runId));
        pendingResume.delete(ctx.runId);
      });
    },
    launchRerun(ctx, work) {
      start(reruns, ctx, work);
    },
    busy: (runId) => reruns.has(runId),
    async idle() {
      while (local.size > 0 || reruns.size > 0 || pending.size > 0 || followUps.size > 0) {
        await Promise.allSettled([...followUps]);
        if (local.size > 0 || reruns.size > 0 || pending.size > 0) await sleep(20);
      }
    },
    async cancel(run) {
      if (!isRunActive(run.status)) {
        // An ended run may have a step's re-run going here: the stop is for it.
        await stopLocal(run.id, "user", reruns);
        return run.status;
      }
      if (await stopLocal(run.id, "user")) return waitUntilEnded(run.id);
      // Picked up here a moment from now: it stops as it starts.
      requestStop(run.id);
      // Queued and not picked up by any instance yet: it ends here, before it starts.
      if (queue && (await queue.remove(run.id))) {
        pending.delete(run.id);
        await endOrphanedRun(deps, run, "cancelled");
        return (await runStatus(deps.db, run.id)) ?? "cancelled";
      }
      if (await stopLocal(run.id, "user")) return waitUntilEnded(run.id);
      if (redis) {
        // Redis down: the stop cannot cross now; the run ends as it would have anyway.
        await redis.pub
          .publish(redis.channel, JSON.stringify({ runId: run.id }))
          .catch((error: unknown) => deps.log.warn({ err: error }, "stop not sent to others"));
        return waitUntilEnded(run.id);
      }
      // One process and not ours: the run is a crash's leftover.
      await endOrphanedRun(deps, run, "cancelled");
      return (await runStatus(deps.db, run.id)) ?? "cancelled";
    },
    async cancelSessionRun(sessionId) {
      const run = await findActiveRun(deps.db, sessionId);
      if (run) await control.cancel(run);
    },
    activeRunIds: () => [...local.keys()],
    async recover() {
      if (deps.db.kind === "pglite") {
        // One process: every run still active was this process's before a restart; each is
        // resumed where it stopped (or ended, when it cannot be).
        const left = await listOrphanedRuns(deps.db, { staleMs: null, exceptIds: [] });
        for (const run of left) {
          void resumeHere(run.id).catch((error: unknown) => {
            deps.log.error({ err: error, runId: run.id }, "a run left by a restart not resumed");
          });
        }
        await endOrphanedReruns(deps, { staleMs: null, exceptRunIds: [...reruns.keys()] });
        return;
      }
      await sweep();
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      if (sweeper) clearInterval(sweeper);
      pending.clear();
      // Runs still running are handed on (decision 047): the queue gives them to another
      // instance; with one process, the next start resumes them.
      for (const run of local.values()) handOff(run.ctx);
      await Promise.all([
        ...[...local.values()].map((run) => within(run.done, WIND_DOWN_MS)),
        ...[...reruns.keys()].map((runId) => stopLocal(runId, "shutdown", reruns)),
      ]);
      await queue?.stop();
      await Promise.allSettled([...followUps]);
      await subscriber?.quit().catch(() => undefined);
    },
  };
  return control;
}

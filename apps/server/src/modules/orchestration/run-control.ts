import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { isRunActive, type TRunStatus } from "@cohort/contracts";
import type { Redis } from "ioredis";
import { endOrphanedReruns, endOrphanedRun, endOrphanedRuns } from "./end-orphaned-runs";
import type { ResumePoint } from "./resume-point";
import type { EngineDeps, RunContext } from "./run-context";
import type { RunEventLogDeps } from "./run-events";
import { createLocalRunner, WIND_DOWN_MS, within } from "./run-locally";
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
 * A run that has not beaten for 15 s lost its instance (heartbeats every 5 s, in
 * run-locally.ts), and a sweep every 5 s finds it: a run is resumed within about 20–25 s of a
 * crash (decision 047).
 */
const STALE_AFTER_MS = 15_000;
const SWEEP_MS = 5_000;
/**
 * A re-run has no heartbeat of its own (its run has ended): one still open after this long
 * is an orphan (PostgreSQL). A re-run is one agent call and at most one review.
 */
const RERUN_STALE_MS = 15 * 60_000;
/** A run queued here and picked up by another instance is forgotten here after this. */
const PENDING_FORGET_MS = 10_000;

/**
 * Where runs execute and how to stop any run wherever it executes: the runs of this process
 * are its local runner's (run-locally.ts); this side starts them here, or queues them
 * (PostgreSQL) when this instance has its share, carries stops to other instances through
 * Redis pub/sub, ends or re-queues runs orphaned by a crash, hands runs on through the queue
 * as it drains, and stops everything on shutdown.
 */
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
   * PostgreSQL: the job queue takes runs over from crashed or draining instances, and takes
   * those beyond `concurrency` (decisions 047, 083); `task` names this app's jobs. Absent
   * (PGlite): runs start in this process, and a restart resumes them.
   */
  queue?: { connectionString: string; task: string; concurrency: number } | undefined;
  /** PostgreSQL: how often to look for orphaned runs (`sweep` below); 0 never. */
  sweepMs?: number | undefined;
}

/** Thrown to the queue when this instance handed a run on: the queue gives it to another. */
class HandedOn extends Error {
  constructor(runId: string) {
    super(`run ${runId} handed on to another instance`);
    this.name = "HandedOn";
  }
}

export async function createRunControl(options: RunControlOptions): Promise<RunControl> {
  const { deps, redis } = options;
  const instanceId = randomUUID();
  const runner = createLocalRunner({ deps, instanceId });
  /** Runs this instance queued, kept until a worker picks them up (here, usually). */
  const pending = new Map<string, RunContext>();
  /** A queued run's resume point, when it starts from stored calls (a fork, decision 070). */
  const pendingResume = new Map<string, ResumePoint>();

  /** The queue's worker: the run starts (or goes on) here, and the job lasts as long. */
  async function handleJob(job: RunJob): Promise<void> {
    // A closing instance takes no run: the queue gives it to another a moment later.
    if (runner.closing) throw new HandedOn(job.runId);
    const mine = pending.get(job.runId);
    const resume = pendingResume.get(job.runId);
    pending.delete(job.runId);
    pendingResume.delete(job.runId);
    let ran: RunContext | null = null;
    if (!mine) {
      ran = await runner.resume(job.runId);
    } else if (await claimRun(deps.db, job.runId, instanceId, { firstStart: true })) {
      // Still active (a stop may have ended it in the queue) and this instance's.
      ran = mine;
      await runner.execute(mine, resume);
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

  let subscriber: Redis | undefined;
  if (redis) {
    // A subscribed connection can do nothing else: a duplicate of the command connection.
    subscriber = redis.pub.duplicate({ connectionName: "cohort:runs", enableReadyCheck: false });
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== redis.channel) return;
      const runId = (JSON.parse(message) as { runId?: string }).runId;
      if (!runId) return;
      if (runner.has(runId)) void runner.stop(runId, "user");
      else runner.requestStop(runId);
    });
    void subscriber.subscribe(redis.channel).catch((error: unknown) => {
      deps.log.error({ err: error }, "could not subscribe to run stops");
    });
  }

  /**
   * Runs whose instance stopped beating (PostgreSQL: other instances may crash while this
   * one runs). With the queue: a job its dead worker still holds is freed for a live one, a
   * run without a job gets one (it is resumed, or ended if it cannot be). Without: it ends.
   */
  async function sweep(): Promise<void> {
    const except = [...runner.runIds(), ...pending.keys()];
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
    await endOrphanedReruns(deps, { staleMs: RERUN_STALE_MS, exceptRunIds: runner.rerunIds() });
  }
  const sweepMs = options.sweepMs ?? SWEEP_MS;
  const sweeper =
    deps.db.kind === "postgres" && sweepMs > 0
      ? setInterval(() => {
          void sweep().catch((error: unknown) =>
            deps.log.warn({ err: error }, "orphaned run sweep failed"),
          );
        }, sweepMs)
      : undefined;
  sweeper?.unref();

  /** How many runs this instance starts itself; beyond, they wait in the queue. */
  const share = options.queue?.concurrency ?? Number.POSITIVE_INFINITY;
  /** Runs started here being handed on as the instance closes (their jobs being added). */
  const handingOn = new Set<Promise<void>>();
  let queueStopped = false;

  /**
   * Starts a run in this process at once, without a job (decision 083): its row, written
   * with this instance's id and a fresh heartbeat, is its lease, which the heartbeat keeps
   * fresh; a crash's run is found by the sweep (its beat goes stale) and queued then, like
   * any run without a job (decision 047). A run a drain handed on gets its job once its work
   * here is over, if this instance still holds it (none took it over meanwhile).
   */
  function startHere(ctx: RunContext, resume: ResumePoint | undefined): void {
    const ran = runner.execute(ctx, resume).catch((error: unknown) => {
      deps.log.error({ err: error, runId: ctx.runId }, "a run started here failed");
    });
    if (!queue) return;
    const handOn = ran.then(async () => {
      if (!ctx.handedOff || !runner.closing || !queue || queueStopped) return;
      const held = await touchRuns(deps.db, [ctx.runId], instanceId);
      if (held.has(ctx.runId)) await queue.add(ctx.runId, instanceId);
    });
    const tracked = handOn
      .catch((error: unknown) => {
        // The sweep finds it once its beat is stale, and queues it then.
        deps.log.warn({ err: error, runId: ctx.runId }, "a run handed on not queued");
      })
      .finally(() => handingOn.delete(tracked));
    handingOn.add(tracked);
  }

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
      // Beyond its share of runs, an instance queues them for any instance with room.
      if (!queue || runner.closing || runner.runIds().length < share) {
        startHere(ctx, resume);
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
        if (pending.delete(ctx.runId)) void runner.execute(ctx, pendingResume.get(ctx.runId));
        pendingResume.delete(ctx.runId);
      });
    },
    launchRerun(ctx, work) {
      runner.rerun(ctx, work);
    },
    busy: (runId) => runner.reruns(runId),
    idle: () => runner.idle(() => pending.size > 0),
    async cancel(run) {
      if (!isRunActive(run.status)) {
        // An ended run may have a step's re-run going here: the stop is for it.
        await runner.stop(run.id, "user", "rerun");
        return run.status;
      }
      if (await runner.stop(run.id, "user")) return waitUntilEnded(run.id);
      // Picked up here a moment from now: it stops as it starts.
      runner.requestStop(run.id);
      // Queued and not picked up by any instance yet: it ends here, before it starts.
      if (queue && (await queue.remove(run.id))) {
        pending.delete(run.id);
        await endOrphanedRun(deps, run, "cancelled");
        return (await runStatus(deps.db, run.id)) ?? "cancelled";
      }
      if (await runner.stop(run.id, "user")) return waitUntilEnded(run.id);
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
    activeRunIds: () => runner.runIds(),
    async recover() {
      if (deps.db.kind === "pglite") {
        // One process: every run still active was this process's before a restart; each is
        // resumed where it stopped (or ended, when it cannot be).
        const left = await listOrphanedRuns(deps.db, { staleMs: null, exceptIds: [] });
        for (const run of left) {
          void runner.resume(run.id).catch((error: unknown) => {
            deps.log.error({ err: error, runId: run.id }, "a run left by a restart not resumed");
          });
        }
        await endOrphanedReruns(deps, { staleMs: null, exceptRunIds: runner.rerunIds() });
        return;
      }
      await sweep();
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      pending.clear();
      await runner.close();
      // A run still going after the wind-down is not handed on: the sweep finds it.
      await within(Promise.all([...handingOn]), WIND_DOWN_MS);
      queueStopped = true;
      await queue?.stop();
      await runner.followUpsSettled();
      await subscriber?.quit().catch(() => undefined);
    },
  };
  return control;
}

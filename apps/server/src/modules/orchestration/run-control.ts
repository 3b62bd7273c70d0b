import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { isRunActive, type TRunStatus } from "@cohort/contracts";
import type { Redis } from "ioredis";
import { endOrphanedReruns, endOrphanedRun, endOrphanedRuns } from "./end-orphaned-runs";
import { executeRun } from "./execute-run";
import {
  type CancelReason,
  cancelled,
  type EngineDeps,
  haltRun,
  type RunContext,
} from "./run-context";
import type { RunEventLogDeps } from "./run-events";
import { findActiveRun, type RunRef, runStatus, touchRuns } from "./run-store";

const HEARTBEAT_MS = 10_000;
/** A run whose instance has not beaten for this long is an orphan (PostgreSQL). */
const STALE_AFTER_MS = 60_000;
const SWEEP_MS = 30_000;
/**
 * A re-run has no heartbeat of its own (its run has ended): one still open after this long
 * is an orphan (PostgreSQL). A re-run is one agent call and at most one review.
 */
const RERUN_STALE_MS = 15 * 60_000;
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
  launch(ctx: RunContext): void;
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

export function createRunControl(options: RunControlOptions): RunControl {
  const { deps, redis } = options;
  const instanceId = randomUUID();
  const local = new Map<string, LocalRun>();
  let closing = false;

  /** Re-runs of steps of ended runs (decision 031), by run id: at most one per run. */
  const reruns = new Map<string, LocalRun>();
  const start = (runs: Map<string, LocalRun>, ctx: RunContext, work: () => Promise<void>) => {
    if (closing) haltRun(ctx, cancelled("shutdown"));
    const done = work().finally(() => {
      runs.delete(ctx.runId);
    });
    runs.set(ctx.runId, { ctx, done });
  };

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
    subscriber = redis.pub.duplicate({ connectionName: "cohort:runs" });
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => {
      if (channel !== redis.channel) return;
      const runId = (JSON.parse(message) as { runId?: string }).runId;
      if (runId && local.has(runId)) void stopLocal(runId, "user");
    });
    void subscriber.subscribe(redis.channel).catch((error: unknown) => {
      deps.log.error({ err: error }, "could not subscribe to run stops");
    });
  }

  const heartbeat = setInterval(() => {
    void touchRuns(deps.db, [...local.keys()]).catch((error: unknown) => {
      deps.log.warn({ err: error }, "run heartbeat failed");
    });
  }, HEARTBEAT_MS);
  heartbeat.unref();

  // With PostgreSQL other instances may crash while this one runs: sweep for their orphans.
  const sweeper =
    deps.db.kind === "postgres"
      ? setInterval(() => {
          void endOrphanedRuns(deps, {
            staleMs: STALE_AFTER_MS,
            exceptIds: [...local.keys()],
          })
            .then(() =>
              endOrphanedReruns(deps, {
                staleMs: RERUN_STALE_MS,
                exceptRunIds: [...reruns.keys()],
              }),
            )
            .catch((error: unknown) => deps.log.warn({ err: error }, "orphaned run sweep failed"));
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
    launch(ctx) {
      start(local, ctx, async () => {
        const answer = await executeRun(ctx);
        if (answer !== null) followUp(proposeMemories(ctx, answer));
      });
    },
    launchRerun(ctx, work) {
      start(reruns, ctx, work);
    },
    busy: (runId) => reruns.has(runId),
    async idle() {
      while (local.size > 0 || reruns.size > 0 || followUps.size > 0) {
        await Promise.allSettled([...followUps]);
        if (local.size > 0 || reruns.size > 0) await sleep(20);
      }
    },
    async cancel(run) {
      if (!isRunActive(run.status)) {
        // An ended run may have a step's re-run going here: the stop is for it.
        await stopLocal(run.id, "user", reruns);
        return run.status;
      }
      if (await stopLocal(run.id, "user")) return waitUntilEnded(run.id);
      if (redis) {
        await redis.pub.publish(redis.channel, JSON.stringify({ runId: run.id }));
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
      await endOrphanedRuns(deps, {
        staleMs: deps.db.kind === "pglite" ? null : STALE_AFTER_MS,
        exceptIds: [...local.keys()],
      });
      await endOrphanedReruns(deps, {
        staleMs: deps.db.kind === "pglite" ? null : RERUN_STALE_MS,
        exceptRunIds: [...reruns.keys()],
      });
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      if (sweeper) clearInterval(sweeper);
      await Promise.all([
        ...[...local.keys()].map((runId) => stopLocal(runId, "shutdown")),
        ...[...reruns.keys()].map((runId) => stopLocal(runId, "shutdown", reruns)),
      ]);
      await Promise.allSettled([...followUps]);
      await subscriber?.quit().catch(() => undefined);
    },
  };
  return control;
}

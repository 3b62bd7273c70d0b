import type { Runner } from "graphile-worker";
import { lazyModule } from "../../platform/lazy-module";
import type { EngineLogger } from "./run-context";

// Loaded when the durable queue starts (PostgreSQL only), not at every start (decision 072).
const graphileWorker = lazyModule<typeof import("graphile-worker")>("graphile-worker");

/**
 * The PostgreSQL job queue that hands runs between instances sharing one database (decision
 * 047): graphile-worker, on its own schema and a small pool of its own. A run starts where it
 * was posted, without a job (decision 083); it gets one when a sweep finds its instance dead,
 * a drain hands it on, or its instance has its share. A job is held (locked) by the instance
 * executing it until the run's work there is over; a job whose instance died is unlocked by
 * the sweep and picked up by a live instance, which resumes the run from its last completed
 * step. LISTEN/NOTIFY wakes an idle worker within
 * milliseconds of `add`, so dispatch adds one round trip, not a polling interval.
 */
export interface RunQueue {
  /** Queues the run; any instance's worker may pick it up (`from`: the instance that queued it). */
  add(runId: string, from: string): Promise<void>;
  /** Removes the run's job unless a worker holds it; true when it was removed. */
  remove(runId: string): Promise<boolean>;
  /** The worker holding the run's job; undefined when no job exists, null when it waits. */
  holder(runId: string): Promise<string | null | undefined>;
  /** Frees the jobs a dead instance's worker held and wakes the live workers. */
  unlock(workerId: string): Promise<void>;
  /** Stops taking jobs; what runs must have been handed on or finished before. */
  stop(): Promise<void>;
}

export interface RunJob {
  runId: string;
  from: string;
}

/** The queue's own connections: one listens, the others take and finish jobs. */
const QUEUE_CONNECTIONS = 4;

/**
 * How often the instance looks for a job LISTEN/NOTIFY did not announce: a run handed on by
 * a draining instance is due again only after the queue's back-off (~3 s), and only a poll
 * finds it. At 5 s a handed-on run waits at most ~8 s, well inside the 30 s a resumption may
 * take; a dead instance's runs are announced by the sweep (`unlock`). graphile-worker 0.16
 * runs one worker per concurrent run (100), each polling on its own: 20 job queries a second
 * per idle instance. So the instance polls once for all of them (decision 086): one count of
 * this app's due, unlocked jobs, which announces them as `add` does (a NOTIFY wakes that many
 * idle workers), and nothing when there are none.
 */
const POLL_INTERVAL_MS = 5000;

/**
 * The workers' own poll, kept only as a fallback behind the instance's (and for a worker
 * whose job fetch failed, which the instance's poll also wakes).
 */
const WORKER_POLL_INTERVAL_MS = 10 * 60_000;

/** Announces this app's due jobs no NOTIFY announced; nothing when there are none. */
const ANNOUNCE_DUE_JOBS = `SELECT pg_notify('jobs:insert', json_build_object('count', count(*))::text)
  FROM graphile_worker.jobs
  WHERE task_identifier = $1 AND locked_at IS NULL AND run_at <= now() AND attempts < max_attempts
  HAVING count(*) > 0`;

/** A job is one pickup of a run; resumptions are limited by the run itself (resume_count). */
const MAX_ATTEMPTS = 10;

const jobKey = (runId: string) => `run:${runId}`;

/**
 * Starts the queue's worker. `task` names this app's jobs (tests give every app its own, so
 * apps sharing one database never take each other's runs); `handle` resolves when the run's
 * work on this instance is over, and throws to hand the run on (the queue retries it).
 */
export async function startRunQueue(options: {
  connectionString: string;
  task: string;
  concurrency: number;
  log: EngineLogger;
  handle(job: RunJob, workerId: string): Promise<void>;
}): Promise<RunQueue> {
  const { task, log } = options;
  const { Logger, makeWorkerUtils, run, runMigrations } = graphileWorker();
  // The driver too loads only here: an embedded (PGlite) instance never pays its memory
  // (decision 082), as the database client loads it only with DATABASE_URL.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: options.connectionString, max: QUEUE_CONNECTIONS });
  // A client's error (the server restarting), idle or checked out, must not end the process.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const logger = new Logger(() => (level, message) => {
    // A run handed on fails its job on purpose (the queue retries it elsewhere); a worker
    // uses a connection only to take or finish a job, never while its run runs, so fewer
    // connections than concurrent runs is the intended shape.
    if (message.includes("handed on to another instance") || message.includes("maxPoolSize")) {
      return;
    }
    if (level === "error") log.error({ queue: "runs" }, message);
    else if (level === "warning") log.warn({ queue: "runs" }, message);
  });
  // Instances starting together: one installs the queue's schema, the others wait for it.
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('cohort.run_queue.migrate'))");
    await runMigrations({ pgPool: pool, logger });
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('cohort.run_queue.migrate'))");
    client.release();
  }
  const utils = await makeWorkerUtils({ pgPool: pool, logger });
  const runner: Runner = await run({
    pgPool: pool,
    logger,
    concurrency: options.concurrency,
    noHandleSignals: true,
    pollInterval: WORKER_POLL_INTERVAL_MS,
    taskList: {
      [task]: async (payload, helpers) => {
        await options.handle(payload as RunJob, helpers.job.locked_by ?? "");
      },
    },
  });
  let polling = false;
  const poll = setInterval(() => {
    if (polling) return;
    polling = true;
    // A failed poll (the database restarting) is retried at the next interval.
    pool
      .query(ANNOUNCE_DUE_JOBS, [task])
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  }, POLL_INTERVAL_MS);
  poll.unref();
  async function holder(runId: string): Promise<string | null | undefined> {
    const { rows } = await pool.query<{ locked_by: string | null }>(
      "SELECT locked_by FROM graphile_worker.jobs WHERE key = $1 AND task_identifier = $2",
      [jobKey(runId), task],
    );
    return rows.length === 0 ? undefined : (rows[0]?.locked_by ?? null);
  }
  return {
    async add(runId, from) {
      await utils.addJob(task, { runId, from } satisfies RunJob, {
        jobKey: jobKey(runId),
        maxAttempts: MAX_ATTEMPTS,
      });
    },
    async remove(runId) {
      if ((await holder(runId)) !== null) return false;
      await pool.query("SELECT graphile_worker.remove_job($1)", [jobKey(runId)]);
      return true;
    },
    holder,
    async unlock(workerId) {
      await utils.forceUnlockWorkers([workerId]);
      await pool.query(`SELECT pg_notify('jobs:insert', '{"count":1}')`);
    },
    async stop() {
      clearInterval(poll);
      await runner.stop().catch(() => undefined);
      await Promise.resolve(utils.release()).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}

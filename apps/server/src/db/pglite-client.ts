import type { ResourceLimits, Worker } from "node:worker_threads";
import { startWorkerThread } from "../platform/worker-thread";
import type { Db, Queryable, QueryResult } from "./client";
import {
  fromWireError,
  type PgliteCommand,
  type PgliteReply,
  type PgliteRequest,
  type PgliteWorkerData,
} from "./pglite-protocol";
import { preparedName } from "./prepared";

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Embedded PGlite on its own thread (pglite-worker.ts, decision 023), behind the same `Db`
 * seam as PostgreSQL. Statements are sent without waiting for the ones before (PGlite runs
 * them in order); a transaction is opened in the worker, and its statements name it.
 */
export async function createPgliteDb(
  data: PgliteWorkerData,
  /** A thread from `startPgliteThread`, told now what to open; otherwise one is started. */
  started?: Worker,
  /** The thread's own heap limits, over THREAD_LIMITS (a thread started here). */
  limits?: ResourceLimits,
): Promise<Db> {
  const worker = started ?? startWorker(data, limits);
  if (started) started.postMessage(data);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: Error | null = null;
  let closing = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));

  // The worker keeps the process alive only while an answer is awaited: an idle database
  // must not hold a finished script open (a PostgreSQL pool's idle sockets are unref'd too).
  const settle = (id: number) => {
    const entry = pending.get(id);
    pending.delete(id);
    if (pending.size === 0 && !closing) worker.unref();
    return entry;
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const entry of pending.values()) entry.reject(stopped);
    pending.clear();
  };

  worker.on("message", (replies: PgliteReply[]) => {
    for (const reply of replies) {
      const entry = settle(reply.id);
      if (!entry) continue;
      if (reply.ok) entry.resolve(reply.value);
      else entry.reject(fromWireError(reply.error));
    }
  });
  worker.on("error", (error) => {
    stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error }));
  });
  worker.on("exit", (code) => {
    stop(
      new Error(
        closing
          ? "The embedded database is closed"
          : `The embedded database stopped (its thread exited with code ${code})`,
      ),
    );
  });

  // Requests leave in batches too: those made in one turn of the event loop share a message.
  let outbox: PgliteRequest[] = [];
  const flush = () => {
    const batch = outbox;
    outbox = [];
    try {
      worker.postMessage(batch);
    } catch {
      // A parameter that cannot be cloned (a function, a symbol) fails its own statement only.
      for (const request of batch) {
        try {
          worker.postMessage([request]);
        } catch (error) {
          settle(request.id)?.reject(error as Error);
        }
      }
    }
  };
  const send = (request: PgliteRequest) => {
    if (outbox.length === 0) queueMicrotask(flush);
    outbox.push(request);
  };

  const call = <T>(command: PgliteCommand): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send({ ...command, id });
    });
  };

  // Reply 0 is the opening itself: the worker sends it once PGlite is ready.
  await new Promise((resolve, reject) => pending.set(0, { resolve, reject }));

  const queryable = (tx: number | null): Queryable => ({
    query: <R>(sql: string, params?: unknown[]) =>
      call<QueryResult<R>>({ op: "query", sql, params, tx, name: preparedName(sql) }),
    exec: (sql) => call<void>({ op: "exec", sql, tx }),
  });
  const connection = queryable(null);

  return {
    kind: "pglite",
    ...connection,
    ping: async () => {
      await connection.query("SELECT 1");
    },
    // PGlite has one connection: its transaction holds it exclusively, so concurrent
    // transactions queue up and run one after another (serialisable by construction).
    transaction: async (fn) => {
      const tx = await call<number>({ op: "begin" });
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn(queryable(tx));
      } catch (error) {
        await call({ op: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    close: async () => {
      if (!stopped && !closing) {
        closing = true;
        // Held until the thread has exited: PGlite flushes the data directory on the way.
        worker.ref();
        await call({ op: "close" });
      }
      await exited;
    },
  };
}

/**
 * The database's thread, started before what it opens is known: it starts and loads PGlite
 * while the server's thread reads its configuration and loads the rest (main.ts, decision
 * 085), and opens what `createPgliteDb` then sends it.
 */
export function startPgliteThread(): Worker {
  return startWorker(null, undefined);
}

/**
 * Statements make short-lived objects only (parameters, rows on their way out): a small young
 * generation serves them, and V8's default one grows to tens of MB that an idle server keeps
 * resident (the embedded default's idle RSS target is 200 MB).
 */
const THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 1 };

/**
 * The built server (scripts/build.mjs) has the worker as its own file beside main.js; from
 * TypeScript sources (tests, tsx) the worker is a .ts file, which Node 20 cannot run alone,
 * so tsx's loader is registered in the thread before the worker is imported.
 */
function startWorker(data: PgliteWorkerData | null, limits: ResourceLimits | undefined): Worker {
  return startWorkerThread(
    import.meta.url,
    { source: "./pglite-worker.ts", built: "./pglite-worker.js" },
    { workerData: data, resourceLimits: { ...THREAD_LIMITS, ...limits } },
  );
}

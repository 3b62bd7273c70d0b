import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import {
  PGlite,
  parse as pgliteParse,
  types as pgliteTypes,
  protocol,
  type Transaction,
} from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import {
  type PgliteReply,
  type PgliteRequest,
  type PgliteWorkerData,
  toWireError,
} from "./pglite-protocol";
import { toNumber } from "./to-number";

/**
 * The embedded database's own thread (decision 023). PGlite runs PostgreSQL synchronously in
 * WebAssembly: on the server's thread every statement stalled HTTP and socket delivery. Here
 * it runs beside them, and the server's thread only sends statements and receives rows
 * (pglite-client.ts).
 */
if (!parentPort) throw new Error("pglite-worker runs as a worker thread only");
const port = parentPort;
/**
 * What to open: given at the thread's start, or as its first message by a thread started
 * before the server had read its configuration (pglite-client.ts `startPgliteThread`). No
 * other message comes before the opening's reply.
 */
const options =
  (workerData as PgliteWorkerData | null) ??
  (await new Promise<PgliteWorkerData>((resolve) => port.once("message", resolve)));

/**
 * V8 compiles PGlite's 9 MB of WebAssembly with its baseline compiler and then again, for the
 * functions that run often, with its optimising one, and keeps both: ~35 MB of resident
 * memory, which is what keeps an idle embedded instance above 200 MB (decision 020). Baseline
 * code alone costs up to ~10% more CPU per statement once warm (and less before, as nothing
 * is recompiled). The flag holds for modules compiled while it is set (V8 flags are the
 * process's, not the thread's), so it is set for PGlite's alone and cleared again: other
 * WebAssembly (fetch's HTTP parser) still tiers up.
 */
async function open(): Promise<PGlite> {
  setFlagsFromString("--liftoff-only");
  try {
    return await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      postgresqlconf: options.conf,
      // pgvector for document embeddings; created on first use (modules/documents/pgvector.ts).
      extensions: { vector },
      parsers: { [pgliteTypes.INT8]: toNumber, [pgliteTypes.NUMERIC]: toNumber },
    });
  } finally {
    setFlagsFromString("--no-liftoff-only");
  }
}

/** What `end` with commit = false throws into PGlite's transaction so it rolls back. */
const ROLLED_BACK = Symbol("rolled back");

interface OpenTransaction {
  tx: Transaction;
  /** Lets PGlite's transaction callback return (commit) or throw (rollback). */
  finish(commit: boolean): void;
  /** PGlite's transaction promise: settles after COMMIT or ROLLBACK ran. */
  outcome: Promise<void>;
}

/**
 * Opening reads PGlite's 9 MB module and its file-system bundle into buffers that are garbage
 * once it is open. The server's thread goes on allocating and collects its garbage; this
 * thread may then sit idle, with nothing to start a collection, and an idle server would
 * keep them (~10 MB of its 200 MB). So it collects once, here (Node's documented way to reach
 * `gc` without starting the process with --expose-gc).
 */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  try {
    // V8's flags are the process's: another thread opening at the same moment may have set
    // --no-expose-gc in between, and then there is no `gc` here. The collection is only a
    // saving, so it is skipped then, never an error that stops the database.
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
    if (typeof gc === "function") gc();
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

const lite = await open();
collectGarbage();
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

/**
 * Opens a transaction and holds it open until `end`: PGlite has one connection, so while it
 * is open every statement outside it queues behind it (inside PGlite), exactly as when
 * PGlite ran on the server's thread. The worker keeps reading messages meanwhile, so the
 * transaction's own statements still reach it.
 */
function begin(): Promise<number> {
  const id = nextTransaction++;
  return new Promise((started, failed) => {
    const outcome: Promise<void> = lite.transaction(
      (tx) =>
        new Promise<void>((commit, rollback) => {
          transactions.set(id, {
            tx,
            finish: (ok) => (ok ? commit() : rollback(ROLLED_BACK)),
            outcome,
          });
          started(id);
        }),
    );
    // Rejects the begin itself only if BEGIN failed; after `started`, `end` reports.
    outcome.catch(failed);
  });
}

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error("The transaction has already ended");
  transactions.delete(id);
  open.finish(commit);
  try {
    await open.outcome;
  } catch (error) {
    if (error !== ROLLED_BACK) throw error;
  }
}

function connection(tx: number | null): Pick<PGlite, "query" | "exec"> {
  if (tx === null) return lite;
  const open = transactions.get(tx);
  if (!open) throw new Error("The transaction has already ended");
  return open.tx;
}

/** A named statement's parameter types, from its description when it was parsed. */
const preparedStatements = new Map<string, number[]>();
const { serialize } = protocol;

/**
 * A prepared statement (client.ts `prepared`): parsed and described once per database, then
 * each run is one round into PGlite (bind, describe, execute, sync together) instead of the six
 * of `query` (parse, describe and bind each time): ~3× less work per statement. It holds the
 * same locks as `query` does: inside a transaction the statement lock, outside it the
 * transaction lock too (so it waits for an open transaction), and it syncs to the file
 * system after a statement outside a transaction, as `query` does.
 */
async function runPrepared(
  name: string,
  sql: string,
  params: unknown[],
  tx: number | null,
): Promise<{ rows: unknown[]; affectedRows?: number }> {
  if (tx !== null && !transactions.has(tx)) throw new Error("The transaction has already ended");
  const run = async () => {
    let types = preparedStatements.get(name);
    if (!types) {
      const { messages } = await lite.execProtocol(
        Buffer.concat([
          serialize.parse({ name, text: sql }),
          serialize.describe({ type: "S", name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      const description = messages.find((m) => m.name === "parameterDescription") as
        | { dataTypeIDs: number[] }
        | undefined;
      types = description?.dataTypeIDs ?? [];
      preparedStatements.set(name, types);
    }
    const oids = types;
    const values = params.map((value, i) => {
      if (value == null) return null;
      const serializer = lite.serializers[oids[i] as number];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await lite.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (tx === null) await lite.syncToFs();
    return pgliteParse.parseResults(messages, lite.parsers)[0] ?? { rows: [] };
  };
  if (tx !== null) return lite._runExclusiveQuery(run);
  await lite._checkReady();
  return lite._runExclusiveTransaction(() => lite._runExclusiveQuery(run));
}

async function handle(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case "query": {
      const result = request.name
        ? await runPrepared(request.name, request.sql, request.params ?? [], request.tx)
        : await connection(request.tx).query(request.sql, request.params);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    case "exec":
      await connection(request.tx).exec(request.sql);
      return undefined;
    case "begin":
      return begin();
    case "end":
      return end(request.tx, request.commit);
    case "close":
      await lite.close();
      // Nothing else keeps this thread alive: it exits once the reply is sent.
      setImmediate(() => {
        flush();
        port.close();
      });
      return undefined;
  }
}

/**
 * Replies leave in batches: each message costs the server's thread an event of its own, and
 * under load most of a batch's statements are answered within the same turn. A batch waits
 * for the turn's end, or at most MAX_HOLD_MS, so an early answer is not held behind a long
 * queue.
 */
const MAX_HOLD_MS = 1;
let outbox: PgliteReply[] = [];
let heldSince = 0;

function flush(): void {
  if (outbox.length === 0) return;
  port.postMessage(outbox);
  outbox = [];
}

function reply(message: PgliteReply): void {
  if (outbox.length === 0) {
    heldSince = performance.now();
    setImmediate(flush);
  }
  outbox.push(message);
  if (performance.now() - heldSince >= MAX_HOLD_MS) flush();
}

// Each request is handled as it arrives, without waiting for the one before: PGlite queues
// them itself, and a transaction's statements must not wait behind one queued outside it.
port.on("message", (requests: PgliteRequest[]) => {
  for (const request of requests) {
    handle(request).then(
      (value) => reply({ id: request.id, ok: true, value }),
      (error: unknown) => reply({ id: request.id, ok: false, error: toWireError(error) }),
    );
  }
});
reply({ id: 0, ok: true, value: undefined });

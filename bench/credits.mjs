#!/usr/bin/env node
// `npm run bench:credits`: reserve+settle operations per second, 50 concurrent users, on
// embedded PGlite and on PostgreSQL (BENCH_DATABASE_URL, default the CI test server; a fresh
// schema, dropped afterwards). It calls the credits services directly — no HTTP — because it
// measures the ledger's transactions and locks, which is what every model call pays for; the
// HTTP platform has its own benchmark (bench:api). Runs under tsx (the services are TypeScript).
// BENCH_DATABASES=postgres (or pglite) runs one of the two; BENCH_POOL sets PostgreSQL's pool
// (default 10, the server's own default). Target (decision 020): ≥ 2,000 pairs/s on PostgreSQL
// with 50 users on a 2-core machine.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { createDb } from "../apps/server/src/db/client.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { getBalance } from "../apps/server/src/modules/credits/get-balance.ts";
import { grantCredits } from "../apps/server/src/modules/credits/grant-credits.ts";
import { sumLedger } from "../apps/server/src/modules/credits/list-ledger.ts";
import { personalPayer } from "../apps/server/src/modules/credits/payer.ts";
import { extendHold, reserveCredits } from "../apps/server/src/modules/credits/reserve-credits.ts";
import { settleHold } from "../apps/server/src/modules/credits/settle-hold.ts";
import { createUser } from "../apps/server/src/modules/users/create-user.ts";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const USERS = 50;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const POOL = Number(process.env.BENCH_POOL ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
// Amounts are the engine's hundredths (decision 014): 1.50 credits held, 1.00 charged.
const HOLD = 150;
const COST = 100;
const SLICE = 50;
const EXTENDS = Number(process.env.BENCH_EXTENDS ?? 2);
const load1 = () => loadavg()[0].toFixed(2);

/** A process's user + system CPU time in ms (Linux /proc; 0 elsewhere or once it is gone). */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function openDb(kind) {
  if (kind === "pglite") {
    const db = await createDb({});
    // PGlite runs inside this process: its CPU is the process's.
    return { db, drop: () => db.close(), serverCpu: async () => new Map() };
  }
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  const app = `cohort-bench-${schema}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("application_name", app);
  const admin = await createDb({ databaseUrl: POSTGRES_URL, maxConnections: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const db = await createDb({ databaseUrl: url.href, schema, maxConnections: POOL });
  return {
    db,
    // The CPU of this pool's PostgreSQL backends (when the server is on this machine), per pid.
    serverCpu: async () => {
      const { rows } = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
        [app],
      );
      return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid)]));
    },
    drop: async () => {
      await db.close();
      await admin.exec(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * `workers` loops, each on its user: reserve a first slice (1.50 credits), extend it by
 * BENCH_EXTENDS slices of 0.50 (default 2: a call that grows twice, decision 053), settle
 * 1.00, until time is up. One op = the whole reserve + extends + settle.
 */
async function run(deps, userIds, workers, serverCpu) {
  const loadBefore = load1();
  const serverBefore = await serverCpu();
  const cpuBefore = process.cpuUsage();
  const latencies = [];
  const deadline = Date.now() + DURATION_S * 1000;
  let ops = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const userId = userIds[w % userIds.length];
      for (let i = 0; Date.now() < deadline; i++) {
        const started = performance.now();
        const payer = personalPayer(userId);
        const hold = await reserveCredits(deps, payer, HOLD, `bench-${w}-${i}-${started}`);
        for (let e = 0; e < EXTENDS; e++) await extendHold(deps, payer, hold.id, SLICE);
        await settleHold(deps, hold.id, COST);
        latencies.push(performance.now() - started);
        ops++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  let serverMs = 0;
  for (const [pid, ms] of await serverCpu()) serverMs += ms - (serverBefore.get(pid) ?? 0);
  latencies.sort((a, b) => a - b);
  return {
    nodeCpuPerOp: ((cpu.user + cpu.system) / 1000 / ops).toFixed(2),
    serverCpuPerOp: (serverMs / ops).toFixed(2),
    opsPerSec: Math.round(ops / DURATION_S),
    p50: Number(percentile(latencies, 0.5).toFixed(2)),
    p99: Number(percentile(latencies, 0.99).toFixed(2)),
    ops,
    load: `${loadBefore}→${load1()}`,
  };
}

async function bench(kind) {
  const { db, drop, serverCpu } = await openDb(kind);
  try {
    await migrate(db);
    const deps = { db, holdTtlMs: 15 * 60_000, publish: () => {} };
    const users = [];
    for (let i = 0; i < USERS; i++) {
      const user = await createUser(db, {
        email: `bench-${i}-${randomBytes(4).toString("hex")}@example.com`,
      });
      await grantCredits(deps, {
        userId: user.id,
        credits: 10_000_000,
        reason: "admin_adjustment",
        reference: `bench-fund-${user.id}`,
      });
      users.push(user.id);
    }
    const spread = await run(deps, users, USERS, serverCpu);
    const hot = await run(deps, users.slice(0, 1), USERS, serverCpu);
    // The invariant still holds after the load: every balance equals its ledger.
    for (const userId of users) {
      const { balance, held } = await getBalance(db, userId);
      if (balance !== (await sumLedger(db, userId)) || held !== 0) {
        throw new Error(`ledger mismatch for ${userId}`);
      }
    }
    return { kind, spread, hot };
  } finally {
    await drop();
  }
}

const results = [];
for (const kind of DATABASES) {
  try {
    results.push(await bench(kind));
  } catch (error) {
    console.error(`${kind}: skipped (${error.message})`);
  }
}
const database = (kind) =>
  kind === "pglite" ? "PGlite (in memory, one connection)" : `PostgreSQL, pool of ${POOL}`;
console.log(
  `\nreserve + ${EXTENDS} extend(s) + settle, ${DURATION_S} s per run, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? "?"}), Node ${process.version}`,
);
for (const { kind } of results) console.log(`${kind}: ${database(kind)}`);
console.log(
  `${"database".padEnd(10)} ${"work".padEnd(42)} ${"ops/s".padStart(6)} ${"p50 ms".padStart(9)} ${"p99 ms".padStart(8)} ${"CPU/op: Node".padStart(13)} ${"PostgreSQL".padStart(10)}  load avg (1 min)`,
);
for (const { kind, spread, hot } of results) {
  for (const [label, r] of [
    [`${USERS} concurrent users, one each`, spread],
    [`${USERS} concurrent calls, one user (hot row)`, hot],
  ]) {
    console.log(
      `${kind.padEnd(10)} ${label.padEnd(42)} ${String(r.opsPerSec).padStart(6)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${`${r.nodeCpuPerOp} ms`.padStart(13)} ${(kind === "pglite" ? "in Node" : `${r.serverCpuPerOp} ms`).padStart(10)}  ${r.load}`,
    );
  }
}
console.log(
  "\nCPU per operation (one reserve + its extends + settle) is what load changes least: the Node process's" +
    "\nown, and that of the pool's PostgreSQL backends when the server runs on this machine" +
    "\n(WAL writer and kernel not counted). Balances equal their ledgers after every run; no" +
    "\nhold left open.",
);

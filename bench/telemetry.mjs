#!/usr/bin/env node
// `npm run bench:telemetry`: client-log ingestion on PostgreSQL (POST /api/logs, 50 entries a
// batch) while GET /api/health is probed at a steady rate; the target is ≥ 5,000 entries/s
// STORED (the count is taken in the database once the write queue drains) without p99 of
// health going above 20 ms. Needs a PostgreSQL: BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres); a scratch database is created and dropped.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { csrfHeaders } from "../test-support/api-client.mjs";
import { freePort, machine, root, serverCpuMs } from "./server.mjs";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const BATCH = 50;
/** Batches per second in the paced run: 120 × 50 = 6,000 entries/s offered. */
const PACED_BATCHES_PER_S = Number(process.env.BENCH_BATCHES_PER_S ?? 120);
const INGEST_CONNECTIONS = 10;
const USERS = 10;
/** Health is probed, not hammered: a load balancer's view of the instance under ingestion. */
const HEALTH_RATE = 100;

const SERVER_ENV = {
  RATE_LIMIT_PER_MINUTE: "1000000000",
  TELEMETRY_LOGS_PER_MINUTE: "1000000000",
  LOG_LEVEL: "warn",
};

function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startServer(dbUrl) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/src/main.ts")],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-bench-")),
        DATABASE_URL: dbUrl,
        ...SERVER_ENV,
        // BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops.
        ...(process.env.BENCH_CPU_PROF
          ? {
              NODE_OPTIONS: `--import ${path.join(root, "bench/cpu-profile.mjs")}`,
              BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF,
            }
          : {}),
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (;;) {
    if (child.exitCode !== null) throw new Error("the server exited during start-up");
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Health probed from its own process (bench/telemetry-probe.mjs), as a load balancer would. */
async function probeHealth(url, seconds) {
  const { stdout } = await promisify(execFile)(process.execPath, [
    path.join(root, "bench/telemetry-probe.mjs"),
    url,
    String(seconds),
    String(HEALTH_RATE),
  ]);
  return JSON.parse(stdout);
}

async function signUp(url, n) {
  const { cookie: csrfCookie, "x-csrf-token": csrfToken } = await csrfHeaders(url);
  const agreement = await (await fetch(`${url}/api/agreements/current`)).json();
  const response = await fetch(`${url}/api/user-auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-csrf-token": csrfToken },
    body: JSON.stringify({
      email: `bench-telemetry-${n}-${Date.now()}@example.com`,
      password: "bench-correct-horse-battery",
      firstName: "Bench",
      lastName: "User",
      agreementId: agreement.agreement.id,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie: `${csrfCookie}; ${session}`, csrfToken };
}

function batchBody(i) {
  const now = new Date().toISOString();
  const logs = Array.from({ length: BATCH }, (_, j) => ({
    timestamp: now,
    level: j % 10 === 0 ? "error" : "info",
    message: `bench entry ${i}-${j}`,
    data: { status: 500, durationMs: 1234, requestId: `bench-${i}-${j}`, password: "x" },
    url: "https://app.example/chat/abc",
    userAgent: "Mozilla/5.0 (bench)",
    sessionId: "bench-session",
    requestId: `bench-${i}-${j}`,
  }));
  return JSON.stringify({ logs });
}

async function storedCount(client) {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM telemetry_logs WHERE source = 'client'",
  );
  return rows[0].n;
}

/** Ingestion (paced or flat out) with health probed beside it; entries/s counted as stored. */
async function run(server, users, db, label, batchesPerSecond) {
  const before = await storedCount(db);
  const cpuBefore = serverCpuMs(server.pid);
  const started = performance.now();
  const requests = users.map((user, i) => ({
    method: "POST",
    path: "/api/logs",
    headers: {
      "content-type": "application/json",
      cookie: user.cookie,
      "x-csrf-token": user.csrfToken,
    },
    body: batchBody(i),
  }));
  const [ingest, health] = await Promise.all([
    autocannon({
      url: server.url,
      connections: INGEST_CONNECTIONS,
      duration: DURATION_S,
      requests,
      ...(batchesPerSecond ? { overallRate: batchesPerSecond } : {}),
    }),
    probeHealth(server.url, DURATION_S),
  ]);
  const accepted = ingest["2xx"] * BATCH;
  // Stored, not merely accepted: wait for the write queue to drain.
  let stored = (await storedCount(db)) - before;
  while (stored < accepted && performance.now() - started < (DURATION_S + 60) * 1000) {
    await sleep(50);
    stored = (await storedCount(db)) - before;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    // The server's own CPU per 1,000 entries stored: what the machine's load does not change.
    cpuMsPerThousand: ((serverCpuMs(server.pid) - cpuBefore) / stored) * 1000,
    label,
    accepted,
    stored,
    perSecond: stored / seconds,
    seconds,
    ingest,
    health,
  };
}

const dbName = `cohort_bench_telemetry_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const db = new pg.Client({ connectionString: databaseUrl(dbName) });
let server;
const results = [];
try {
  server = await startServer(databaseUrl(dbName));
  await db.connect();
  const users = [];
  for (let n = 0; n < USERS; n++) users.push(await signUp(server.url, n));
  const loadBefore = loadavg()[0];
  const idleHealth = await probeHealth(server.url, 5);
  results.push(
    await run(
      server,
      users,
      db,
      `paced, ${PACED_BATCHES_PER_S * BATCH} entries/s offered`,
      PACED_BATCHES_PER_S,
    ),
  );
  // BENCH_FLAT_OUT=0 skips the flat-out run (when only the target's paced run is wanted).
  if (process.env.BENCH_FLAT_OUT !== "0") {
    results.push(await run(server, users, db, "flat out", undefined));
  }

  const rows = [
    [
      "machine",
      `${machine()}, ${cpus().length} cores, 1-min load ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
    ],
    ["date", new Date().toISOString().slice(0, 10)],
    ["database", "PostgreSQL (scratch database, dropped afterwards)"],
    [
      "configuration",
      `${BATCH} entries/batch, ${INGEST_CONNECTIONS} conns, ${USERS} users, ${DURATION_S} s per run, health probed at ${HEALTH_RATE} req/s from its own process; ${Object.entries(
        SERVER_ENV,
      )
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}`,
    ],
    [
      "GET /api/health, no ingestion",
      `p50 ${idleHealth.latency.p50} ms, p99 ${idleHealth.latency.p99} ms`,
    ],
  ];
  for (const r of results) {
    rows.push([
      `POST /api/logs, ${r.label}`,
      `${Math.round(r.perSecond)} entries/s stored (${r.stored}/${r.accepted} accepted in ${r.seconds.toFixed(1)} s incl. drain), batch p50 ${r.ingest.latency.p50} ms, p99 ${r.ingest.latency.p99} ms, non-2xx ${r.ingest.non2xx}, errors ${r.ingest.errors}, server CPU ${r.cpuMsPerThousand.toFixed(0)} ms per 1,000 entries`,
    ]);
    rows.push([
      "  GET /api/health meanwhile",
      `p50 ${r.health.latency.p50} ms, p99 ${r.health.latency.p99} ms, non-2xx ${r.health.non2xx}`,
    ]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
  const paced = results[0];
  const ok = paced.perSecond >= 5_000 && paced.health.latency.p99 <= 20;
  console.log(
    ok
      ? "target met: ≥ 5,000 entries/s stored with health p99 ≤ 20 ms"
      : "target NOT met (see the paced run)",
  );
} finally {
  await server?.stop();
  await db.end().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}

#!/usr/bin/env node
// `node bench/request-cpu.mjs [before bundle …]`: the server's CPU per request (from /proc,
// so a busy shared machine moves it far less than req/s) for authenticated GET /api/sessions
// (a browser's cookie, a page of 20 of 50 sessions) and GET /api/health, through real HTTP
// (autocannon, 50 connections), for this checkout's server bundle ("after", built when stale)
// and each bundle named, interleaved (before, after, before, after, …: a load that changes
// touches both alike). Prints each pair, the medians and the after/before ratios, with the
// load and the configuration. PGlite unless BENCH_DATABASE_URL names an empty PostgreSQL
// database. BENCH_PAIRS (default 3) rounds of BENCH_DURATION_S (default 5) per endpoint.
// BENCH_CPU_PROF=dir writes each server's V8 CPU profile there (bench/profile-summary.mjs
// reads them). On PostgreSQL the database's own CPU per request is measured too (its backends
// for that database, from /proc: the database shares the machine's cores). BENCH_ENV_<entry
// index>='{"NAME":"value"}' adds environment to one entry's servers (0 = the first named
// bundle; the last index is this checkout's), e.g. two settings of one bundle. Decision 072.
import { cpus, loadavg } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildIfStale } from "../scripts/build.mjs";
import { machine, root, serverCpuMs, startServer } from "./server.mjs";

const DATABASE_URL = process.env.BENCH_DATABASE_URL;

const AFTER = "apps/server/dist/main.js";
const befores = process.argv.slice(2);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 50;
const SESSIONS = 50;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function call(base, method, url, { cookie, csrfToken, body } = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(cookie ? { cookie } : {}),
      ...(csrfToken ? { "x-csrf-token": csrfToken } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return { json, response };
}
const cookiesOf = (response) => response.headers.getSetCookie().map((c) => c.split(";")[0]);

/** A browser-style user (session cookie + CSRF) who accepted the agreement, with sessions. */
async function userWithSessions(base) {
  const csrf = await call(base, "GET", "/api/csrf-token");
  const csrfCookies = cookiesOf(csrf.response);
  const { csrfToken } = csrf.json;
  const { agreement } = (await call(base, "GET", "/api/agreements/current")).json;
  const signUp = await call(base, "POST", "/api/user-auth/signup", {
    cookie: csrfCookies.join("; "),
    csrfToken,
    body: {
      email: `bench-${Date.now()}-${Math.random().toString(16).slice(2)}@example.com`,
      password: "benchmark passphrase 1",
      firstName: "Bench",
      lastName: "Mark",
      agreementId: agreement.id,
    },
  });
  const cookie = [...csrfCookies, ...cookiesOf(signUp.response)].join("; ");
  for (let i = 0; i < SESSIONS; i++) {
    await call(base, "POST", "/api/sessions", {
      cookie,
      csrfToken,
      body: { title: `Bench session ${i}` },
    });
  }
  return cookie;
}

/** The database's backends' CPU so far, by pid (PostgreSQL on this machine; none on PGlite). */
async function databaseCpuMs(probe) {
  const cpu = new Map();
  if (!probe) return cpu;
  const { rows } = await probe.query(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  for (const { pid } of rows) {
    try {
      cpu.set(pid, serverCpuMs(pid));
    } catch {
      // ended since
    }
  }
  return cpu;
}

async function cpuPerRequest(url, pid, probe, headers = {}) {
  const before = serverCpuMs(pid);
  const dbBefore = await databaseCpuMs(probe);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpu = serverCpuMs(pid) - before;
  let dbCpu = 0;
  for (const [backend, ms] of await databaseCpuMs(probe))
    dbCpu += ms - (dbBefore.get(backend) ?? 0);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: failures`);
  return {
    cpuMs: cpu / result.requests.total,
    dbCpuMs: dbCpu / result.requests.total,
    reqPerS: result.requests.average,
    p99: result.latency.p99,
  };
}

async function measure(entry, index) {
  const server = await startServer({
    entry,
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "1000000000",
      // Each server signs one user up; on PostgreSQL the throttle's counts outlive the server.
      SIGNUP_LIMIT_PER_HOUR: "1000000",
      ...(DATABASE_URL ? { DATABASE_URL } : {}),
      ...(process.env.BENCH_CPU_PROF
        ? {
            NODE_OPTIONS: `--import ${path.join(root, "bench/cpu-profile.mjs")}`,
            BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF,
          }
        : {}),
      ...JSON.parse(process.env[`BENCH_ENV_${index}`] ?? "{}"),
    },
  });
  let probe;
  try {
    if (DATABASE_URL) {
      const { default: pg } = await import("pg");
      probe = new pg.Client({ connectionString: DATABASE_URL });
      await probe.connect();
    }
    const cookie = await userWithSessions(server.url);
    // Warm-up: the JIT and the connection pool.
    await autocannon({
      url: `${server.url}/api/sessions`,
      connections: 10,
      amount: 2000,
      headers: { cookie },
    });
    const sessions = await cpuPerRequest(`${server.url}/api/sessions`, server.child.pid, probe, {
      cookie,
    });
    const health = await cpuPerRequest(`${server.url}/api/health`, server.child.pid, probe);
    return { sessions, health };
  } finally {
    await probe?.end();
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const dbShow = (r) => (DATABASE_URL ? ` + database ${r.dbCpuMs.toFixed(3)}` : "");
const show = (m) =>
  `sessions ${m.sessions.cpuMs.toFixed(3)}${dbShow(m.sessions)} ms CPU/req (${Math.round(m.sessions.reqPerS)} req/s, p99 ${m.sessions.p99} ms), health ${m.health.cpuMs.toFixed(3)}${dbShow(m.health)} ms CPU/req (${Math.round(m.health.reqPerS)} req/s)`;

await buildIfStale({ only: ["server"] });
console.log(
  `${machine()}, ${cpus().length} cores, ${new Date().toISOString()}; ${DATABASE_URL ? "PostgreSQL" : "PGlite"}, LOG_LEVEL=warn, ${CONNECTIONS} connections, ${DURATION_S} s per endpoint; load ${load()}`,
);
const entries = [...befores, AFTER];
const results = new Map(entries.map((_, i) => [i, []]));
for (let pair = 0; pair < PAIRS; pair++) {
  for (const [index, entry] of entries.entries()) {
    const m = await measure(entry, index);
    results.get(index).push(m);
    console.log(`  ${pair + 1}. ${entry}: ${show(m)} (load ${load()})`);
  }
}
const after = results.get(entries.length - 1);
// Server and database together per request (the database's part is 0 on PGlite).
const total = (r) => r.cpuMs + (r.dbCpuMs ?? 0);
for (const [index, entry] of entries.entries()) {
  const rows = results.get(index);
  const figure = (pick) =>
    [(r) => r.cpuMs, (r) => r.dbCpuMs, total].map((f) => median(rows.map((m) => f(pick(m)))));
  const [s, sDb, sTotal] = figure((m) => m.sessions);
  const [h, hDb, hTotal] = figure((m) => m.health);
  const ratioOf = (pick, of) =>
    (median(after.map((m) => of(pick(m)))) / median(rows.map((m) => of(pick(m))))).toFixed(2);
  const ratio =
    index === entries.length - 1
      ? ""
      : `; after/before: sessions ${ratioOf(
          (m) => m.sessions,
          (r) => r.cpuMs,
        )}${DATABASE_URL ? ` (with the database ${ratioOf((m) => m.sessions, total)})` : ""}, health ${ratioOf(
          (m) => m.health,
          (r) => r.cpuMs,
        )}`;
  const withDb = (db, sum) =>
    DATABASE_URL ? ` + database ${db.toFixed(3)} = ${sum.toFixed(3)}` : "";
  console.log(
    `median ${index}. ${entry}: sessions ${s.toFixed(3)}${withDb(sDb, sTotal)} ms CPU/req, health ${h.toFixed(3)}${withDb(hDb, hTotal)} ms CPU/req${ratio}`,
  );
}

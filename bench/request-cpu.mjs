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
// reads them). Decision 072.
import { cpus, loadavg } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildIfStale } from "../scripts/build.mjs";
import { machine, root, serverCpuMs, startServer } from "./server.mjs";

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

async function cpuPerRequest(url, pid, headers = {}) {
  const before = serverCpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpu = serverCpuMs(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: failures`);
  return {
    cpuMs: cpu / result.requests.total,
    reqPerS: result.requests.average,
    p99: result.latency.p99,
  };
}

async function measure(entry) {
  const server = await startServer({
    entry,
    env: {
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "1000000000",
      // Each server signs one user up; on PostgreSQL the throttle's counts outlive the server.
      SIGNUP_LIMIT_PER_HOUR: "1000000",
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      ...(process.env.BENCH_CPU_PROF
        ? {
            NODE_OPTIONS: `--import ${path.join(root, "bench/cpu-profile.mjs")}`,
            BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF,
          }
        : {}),
    },
  });
  try {
    const cookie = await userWithSessions(server.url);
    // Warm-up: the JIT and the connection pool.
    await autocannon({
      url: `${server.url}/api/sessions`,
      connections: 10,
      amount: 2000,
      headers: { cookie },
    });
    const sessions = await cpuPerRequest(`${server.url}/api/sessions`, server.child.pid, {
      cookie,
    });
    const health = await cpuPerRequest(`${server.url}/api/health`, server.child.pid);
    return { sessions, health };
  } finally {
    await server.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const show = (m) =>
  `sessions ${m.sessions.cpuMs.toFixed(3)} ms CPU/req (${Math.round(m.sessions.reqPerS)} req/s, p99 ${m.sessions.p99} ms), health ${m.health.cpuMs.toFixed(3)} ms CPU/req (${Math.round(m.health.reqPerS)} req/s)`;

await buildIfStale({ only: ["server"] });
console.log(
  `${machine()}, ${cpus().length} cores, ${new Date().toISOString()}; ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, LOG_LEVEL=warn, ${CONNECTIONS} connections, ${DURATION_S} s per endpoint; load ${load()}`,
);
const entries = [...befores, AFTER];
const results = new Map(entries.map((e) => [e, []]));
for (let pair = 0; pair < PAIRS; pair++) {
  for (const entry of entries) {
    const m = await measure(entry);
    results.get(entry).push(m);
    console.log(`  ${pair + 1}. ${entry}: ${show(m)} (load ${load()})`);
  }
}
const after = results.get(AFTER);
for (const entry of entries) {
  const rows = results.get(entry);
  const s = median(rows.map((r) => r.sessions.cpuMs));
  const h = median(rows.map((r) => r.health.cpuMs));
  const ratio =
    entry === AFTER
      ? ""
      : `; after/before: sessions ${(median(after.map((r) => r.sessions.cpuMs)) / s).toFixed(2)}, health ${(median(after.map((r) => r.health.cpuMs)) / h).toFixed(2)}`;
  console.log(
    `median ${entry}: sessions ${s.toFixed(3)} ms CPU/req, health ${h.toFixed(3)} ms CPU/req${ratio}`,
  );
}

#!/usr/bin/env node
// `npm run bench:requests`: the HTTP request path through real HTTP (autocannon), beside a bare
// Fastify hello-world on the same machine. Targets (decision 019) on a 2-core machine:
//  - GET /api/health ≥ 50% of bare Fastify;
//  - authenticated GET /api/sessions (a user with 50 sessions, 50 connections) ≥ 3,000 req/s
//    with p99 < 20 ms on PostgreSQL, ≥ 1,500 req/s on PGlite;
//  - statements per request (PostgreSQL: committed transactions per request, every statement
//    outside a transaction commits on its own);
//  - CoChat's added time to first token over the provider < 3 ms at concurrency 1: a fake
//    OpenAI-compatible provider in its own process (first token after 20 ms), asked directly
//    and through POST /api/cochat/chat; the difference of the medians is what Cohort adds.
// PGlite always; PostgreSQL too when BENCH_DATABASE_URL names an empty database.
// BENCH_SERVER_ENTRY runs another server bundle (before/after comparisons). BENCH_ROUNDS
// (default 3) interleaved rounds of bare Fastify, health and sessions, BENCH_DURATION_S
// (default 10) each; a ratio is the median of the rounds' own ratios.
import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { buildIfStale } from "../scripts/build.mjs";
import { machine, root, startServer } from "./server.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const SESSIONS = 50;
const RATE_LIMIT = "1000000000";
const LOG_LEVEL = "warn";
const ENTRY = process.env.BENCH_SERVER_ENTRY ?? "apps/server/dist/main.js";
const TTFT_MS = 20;
const COCHAT_TURNS = Number(process.env.BENCH_COCHAT_TURNS ?? 40);
const ADMIN = { email: "bench-admin@example.com", password: "bench admin passphrase 1" };

const load1 = () => loadavg()[0].toFixed(2);

async function measure(url, headers = {}) {
  const loadBefore = load1();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    load: `${loadBefore}→${load1()}`,
  };
}

const show = (m) =>
  `${m.reqPerSec} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, non-2xx ${m.non2xx}, errors ${m.errors}, load ${m.load}`;

/**
 * Runs an ES module script in its own process (so its timers never compete with the
 * server's or the client's) and resolves with the first line it prints and a stop function;
 * the process never outlives the benchmark.
 */
async function startScript(what, script, { cwd = root, execArgv = [] } = {}) {
  const child = spawn(process.execPath, [...execArgv, "--input-type=module", "-e", script], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", () => reject(new Error(`${what} exited`)));
  });
  const stop = () => child.kill("SIGTERM");
  process.once("exit", stop);
  return { line, stop };
}

/**
 * A bare Fastify hello-world in its own process: the ceiling of this machine. Started once a
 * run and measured in every round, right before the server's own figures.
 */
async function bareFastify() {
  const script = `
    import Fastify from "fastify";
    const app = Fastify({ logger: false });
    app.get("/", async () => ({ hello: "world" }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    console.log(app.server.address().port);
  `;
  const bare = await startScript("bare Fastify", script, { cwd: path.join(root, "apps/server") });
  const url = `http://127.0.0.1:${bare.line}/`;
  return { url, measure: () => measure(url), stop: bare.stop };
}

/** The round whose req/s is the median (an odd count: the middle one), for show(). */
function medianRound(rounds) {
  return rounds.slice().sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(rounds.length / 2)];
}

/** Each round's figure over the same round's bare Fastify: the median and every round's. */
function ratio(rounds, bares) {
  const each = rounds.map((round, i) => (round.reqPerSec / bares[i].reqPerSec) * 100);
  const median = each.slice().sort((a, b) => a - b)[Math.floor(each.length / 2)];
  return `${median.toFixed(0)}% (median of the rounds: ${each.map((r) => `${r.toFixed(0)}%`).join(", ")})`;
}

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
  const userId = signUp.json.user.id;
  for (let i = 0; i < SESSIONS; i++) {
    await call(base, "POST", "/api/sessions", {
      cookie,
      csrfToken,
      body: { title: `Bench session ${i}` },
    });
  }
  return { cookie, csrfToken, userId };
}

/** The fake provider of the tests, in its own process so its timers do not compete. */
async function startFakeProvider() {
  const fakePath = path.join(
    root,
    "apps/server/test/support/fake-provider/fake-provider-server.ts",
  );
  const script = `
    const { FakeProviderServer } = await import(${JSON.stringify(fakePath)});
    const fake = await FakeProviderServer.start();
    fake.defaultReply = { text: "one two three four five", firstByteDelayMs: ${TTFT_MS}, chunkDelayMs: 1 };
    setInterval(() => { fake.requests.length = 0; }, 1000).unref();
    console.log(fake.baseUrls.openaiCompatible);
  `;
  const fake = await startScript("the fake provider", script, { execArgv: ["--import", "tsx"] });
  return { url: fake.line, stop: fake.stop };
}

/** Milliseconds from sending the request until `marker` arrives in the streamed body. */
async function timeToMarker(url, init, marker) {
  const started = performance.now();
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let seen = "";
  let at = null;
  for await (const chunk of response.body) {
    seen += decoder.decode(chunk, { stream: true });
    if (at === null && seen.includes(marker)) at = performance.now() - started;
  }
  if (at === null) throw new Error(`${url}: no ${marker} in ${seen.slice(0, 200)}`);
  return at;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The floor of CoChat's added time: a bare node:http proxy in its own process that forwards
 * the request to the provider on a kept-alive connection and pipes the stream back. No
 * sign-in, no lookup, no SDK: what one HTTP hop through any server costs on this machine.
 */
async function startBareProxy(fakeUrl) {
  const target = new URL(`${fakeUrl}/chat/completions`);
  const script = `
    import http from "node:http";
    const agent = new http.Agent({ keepAlive: true });
    const target = new URL(${JSON.stringify(target.href)});
    const server = http.createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        const upstream = http.request(target, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", authorization: "Bearer bench", "content-length": body.length },
        }, (answer) => {
          res.writeHead(answer.statusCode, { "content-type": "text/event-stream" });
          answer.pipe(res);
        });
        upstream.end(body);
      });
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));
  `;
  const proxy = await startScript("the bare proxy", script);
  return { url: `http://127.0.0.1:${proxy.line}`, stop: proxy.stop };
}

/**
 * CoChat at concurrency 1: time to the first delta through Cohort, from the provider, and
 * through a bare proxy (the floor), turns interleaved.
 */
async function cochatAddedTtft(base, fakeUrl, user) {
  const csrf = await call(base, "GET", "/api/csrf-token");
  const adminCookies = cookiesOf(csrf.response);
  const login = await call(base, "POST", "/api/admin/login", {
    cookie: adminCookies.join("; "),
    csrfToken: csrf.json.csrfToken,
    body: ADMIN,
  });
  await call(base, "PUT", `/api/admin/users/${user.userId}/tier`, {
    cookie: [...adminCookies, ...cookiesOf(login.response)].join("; "),
    csrfToken: csrf.json.csrfToken,
    body: { tier: "pro" },
  });
  const messages = [{ role: "user", content: "Say five words." }];
  const viaCohort = () =>
    timeToMarker(
      `${base}/api/cochat/chat`,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          cookie: user.cookie,
          "x-csrf-token": user.csrfToken,
        },
        body: JSON.stringify({ model: "local:llama3.1", messages }),
      },
      "event: delta",
    );
  const direct = () =>
    timeToMarker(
      `${fakeUrl}/chat/completions`,
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body: JSON.stringify({ model: "llama3.1", stream: true, messages }),
      },
      '"content":"one',
    );
  const proxy = await startBareProxy(fakeUrl);
  const viaProxy = () =>
    timeToMarker(
      proxy.url,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "llama3.1", stream: true, messages }),
      },
      '"content":"one',
    );
  try {
    for (let i = 0; i < 5; i++) {
      await viaCohort();
      await direct();
      await viaProxy();
    }
    const through = [];
    const straight = [];
    const proxied = [];
    for (let i = 0; i < COCHAT_TURNS; i++) {
      through.push(await viaCohort());
      straight.push(await direct());
      proxied.push(await viaProxy());
    }
    return { through: median(through), direct: median(straight), proxied: median(proxied) };
  } finally {
    proxy.stop();
  }
}

/** PostgreSQL: committed transactions of the whole database per request, over N requests. */
async function statementsPerRequest(databaseUrl, base, cookie) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const commits = async () =>
    Number(
      (
        await client.query(
          "SELECT pg_stat_force_next_flush(), xact_commit FROM pg_stat_database WHERE datname = current_database()",
        )
      ).rows[0].xact_commit,
    );
  const requests = 200;
  // An idle backend reports its counts only after 10 s (PGSTAT_IDLE_INTERVAL): wait for every
  // connection of the server's pool to have reported, before and after.
  const settle = () => new Promise((r) => setTimeout(r, 11_500));
  await settle();
  const before = await commits();
  for (let i = 0; i < requests; i++) await call(base, "GET", "/api/sessions", { cookie });
  await settle();
  const after = await commits();
  await client.end();
  // Each commits() call is itself one transaction.
  return (after - before - 1) / requests;
}

async function runOn(label, env, databaseUrl, fakeUrl) {
  // BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? {
        NODE_OPTIONS: `--import ${path.join(root, "bench/cpu-profile.mjs")}`,
        BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF,
      }
    : {};
  const server = await startServer({ env: { ...env, ...profile }, entry: ENTRY });
  try {
    const user = await userWithSessions(server.url);
    const { cookie } = user;
    // The ceiling is measured in every round, right before the server's figures, and each
    // ratio is of the same round's: the bare Fastify alone moved 30 % between two runs of
    // one quiet machine (decision 082), more than the goal's margins.
    const bareServer = await bareFastify();
    const bare = [];
    const health = [];
    const sessions = [];
    try {
      // Unmeasured: the JIT of a process just started (the bare one) is not the ceiling.
      for (const [url, headers] of [
        [bareServer.url, {}],
        [`${server.url}/api/health`, {}],
        [`${server.url}/api/sessions`, { cookie }],
      ]) {
        await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
      }
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await bareServer.measure());
        health.push(await measure(`${server.url}/api/health`));
        sessions.push(await measure(`${server.url}/api/sessions`, { cookie }));
      }
    } finally {
      bareServer.stop();
    }
    const statements = databaseUrl
      ? (await statementsPerRequest(databaseUrl, server.url, cookie)).toFixed(2)
      : "n/a (counted on PostgreSQL; see apps/server/test/request-path.test.ts)";
    const cochat = await cochatAddedTtft(server.url, fakeUrl, user);
    return { label, bare, health, sessions, statements, cochat };
  } finally {
    await server.stop();
  }
}

if (ENTRY === "apps/server/dist/main.js") await buildIfStale({ only: ["server"] });
const fake = await startFakeProvider();
const base = {
  LOG_LEVEL,
  RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  OPENAI_COMPATIBLE_BASE_URL: fake.url,
  OPENAI_COMPATIBLE_API_KEY: "bench",
  OPENAI_COMPATIBLE_MODELS: "llama3.1",
  COCHAT_MESSAGES_PER_HOUR: "100000",
  // Each run signs users up; on PostgreSQL the throttle's counts outlive the server.
  SIGNUP_LIMIT_PER_HOUR: "1000000",
};
const runs = [await runOn("PGlite", base, null, fake.url)];
if (process.env.BENCH_DATABASE_URL) {
  const url = process.env.BENCH_DATABASE_URL;
  runs.push(await runOn("PostgreSQL", { ...base, DATABASE_URL: url }, url, fake.url));
}
fake.stop();

const rows = [
  ["machine", `${machine()}, ${cpus().length} cores`],
  ["date", new Date().toISOString()],
  [
    "configuration",
    `server ${ENTRY}, LOG_LEVEL=${LOG_LEVEL}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}, ${CONNECTIONS} conns, ${ROUNDS} interleaved rounds of ${DURATION_S} s each (bare, health, sessions; the median round shown)`,
  ],
];
for (const run of runs) {
  const sessions = medianRound(run.sessions);
  rows.push([`[${run.label}] bare Fastify hello-world`, show(medianRound(run.bare))]);
  rows.push([`[${run.label}] GET /api/health`, show(medianRound(run.health))]);
  rows.push([`[${run.label}] health vs bare Fastify`, ratio(run.health, run.bare)]);
  rows.push([`[${run.label}] GET /api/sessions (${SESSIONS} sessions)`, show(sessions)]);
  rows.push([`[${run.label}] sessions vs bare Fastify`, ratio(run.sessions, run.bare)]);
  rows.push([`[${run.label}] statements per GET /api/sessions`, run.statements]);
  rows.push([
    `[${run.label}] CoChat added time to first token (C=1)`,
    `${(run.cochat.through - run.cochat.direct).toFixed(1)} ms (median ${run.cochat.through.toFixed(1)} ms through Cohort − ${run.cochat.direct.toFixed(1)} ms direct, ${COCHAT_TURNS} turns, provider TTFT ${TTFT_MS} ms)`,
  ]);
  rows.push([
    `[${run.label}] floor: a bare proxy's added time to first token`,
    `${(run.cochat.proxied - run.cochat.direct).toFixed(1)} ms (median ${run.cochat.proxied.toFixed(1)} ms through a node:http proxy that only forwards and pipes)`,
  ]);
  rows.push([
    `[${run.label}] GET /api/sessions: mean latency at ${CONNECTIONS} connections`,
    `${((CONNECTIONS / sessions.reqPerSec) * 1000).toFixed(1)} ms (connections ÷ throughput: a p99 under 20 ms at ${CONNECTIONS} connections needs well over ${Math.round(CONNECTIONS / 0.02)} req/s)`,
  ]);
}
const width = Math.max(...rows.map(([k]) => k.length));
for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);

#!/usr/bin/env node
// `npm run bench:orchestration`: the run engine against a fake model provider with fixed
// timing, through the real server (built, one process, embedded PGlite unless
// BENCH_DATABASE_URL is set: then a fresh database is made on that server and dropped after),
// over HTTP and socket.io (polling, kept-alive connections, as a browser holds them), and the
// anchor in the same run (decision 072): the same team run by the OpenAI Agents SDK behind the
// same HTTP + socket.io surface (bench/anchor/server.mjs, installed on first use with
// `npm ci --prefix bench/anchor`), so every figure is printed with its ratio to the anchor.
// Measured from outside, as a person at a browser sees it:
//  1. Overhead per run: the client's POST /api/ai/chat → the client seeing run.completed,
//     minus the model time on the run's critical path (5 calls deep: plan → strategist →
//     coder ∥ designer → critic → synthesis), each call TTFT + (chunks − 1) × chunk interval
//     at the fake provider; split into stages with the provider's log of when each call
//     arrived and ended (head: POST → the plan request; the gaps between calls; tail: the
//     last token → the client seeing the end).
//  2. Concurrent runs one process sustains with p99 latency under 50 ms, where latency is the
//     age of the freshest token in each streamed event when the client receives it (the
//     provider's send stamp in its text → receipt). C doubles until the p99 passes 50 ms,
//     then bisects.
//  3. CPU per run and per streamed chunk (the server process, from /proc), and database
//     commits and row writes per run (PostgreSQL's pg_stat_database on the fresh database:
//     each statement outside a transaction is one commit, each transaction one).
// The fake provider (bench/fake-provider.mjs) runs in its own process. BENCH_ONLY=overhead
// measures (1) only; BENCH_ANCHOR=0 leaves the anchor out. BENCH_ONLY=counts measures what a
// loaded machine moves least (decision 086): the server's CPU per run at C=1 and, on
// PostgreSQL, the commits and the statements per run, each statement's text with its count.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import http, { Agent } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { io } from "socket.io-client";
import { buildIfStale } from "../scripts/build.mjs";
import { apiCall } from "../test-support/api-client.mjs";
import {
  BENCH_ADMIN_ENV,
  BENCH_PLAN,
  machine,
  root,
  serverCpuMs,
  signUpVerified,
  startFakeProvider,
  startServer,
} from "./server.mjs";

const OVERHEAD_RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 8);
const P99_TARGET_MS = 50;
const MAX_CONCURRENCY = Number(process.env.BENCH_MAX_CONCURRENCY ?? 256);
const TTFT_MS = 20;
const CHUNK_MS = 10;
const CHUNKS = 20;
const CALLS = 6;
const CRITICAL_CALLS = 5;
const MODEL_MS_PER_CALL = TTFT_MS + (CHUNKS - 1) * CHUNK_MS;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";
const RATE_LIMIT = "1000000000";

// "Score: 8/10" keeps the Critic above the bar, so every run has the same shape (no revision).
const TAIL = " Score: 8/10";
const STAMP = /⟦t=(\d+\.\d+)⟧/g;

/** A fresh database on the PostgreSQL server, so runs of this benchmark and tests never share one. */
async function freshDatabase(url) {
  const name = `cohort_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  const stats = new pg.Client({ connectionString: fresh.toString() });
  await stats.connect();
  return {
    url: fresh.toString(),
    /**
     * Commits and row writes so far. The statistics lag: a backend that goes idle reports
     * within a second, or within 10 s when it reported less than a second before (PostgreSQL
     * 15), so an exact count (BENCH_ONLY=counts) waits the 10 s.
     */
    async counters() {
      await sleep(process.env.BENCH_ONLY === "counts" ? 11_000 : 1200);
      const { rows } = await stats.query(
        `SELECT xact_commit::int AS commits, tup_inserted::int AS inserts, tup_updated::int AS updates,
                tup_deleted::int AS deletes
         FROM pg_stat_database WHERE datname = current_database()`,
      );
      return rows[0];
    },
    async drop() {
      await stats.end();
      const admin2 = new pg.Client({ connectionString: url });
      await admin2.connect();
      await admin2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin2.end();
    },
  };
}

/** One JSON call with a Bearer token (a run's start may wait long at a level past capacity). */
const api = (base, token, method, url, body) =>
  apiCall(base, method, url, { bearer: token ?? undefined, body, timeoutMs: 120_000 });

const pollingAgent = new Agent({ keepAlive: true });

/**
 * One socket joined to some sessions; resolves each run's end and records, for every stamped
 * provider chunk in a delta event, its latency from the provider's send to this receipt.
 */
function openSocket(base, token, latencies) {
  const socket = io(base, {
    transports: ["polling"],
    auth: { token },
    reconnection: false,
    // Polls over kept-alive connections, as a browser sends them: engine.io-client's Node
    // transport otherwise opens (and the server accepts) a new TCP connection for every poll.
    agent: pollingAgent,
  });
  const waiting = new Map();
  socket.on("run-event", (event) => {
    if (latencies && (event.type === "agent.delta" || event.type === "final.delta")) {
      // The age of the freshest token in the event when it arrives: what a person sees.
      const received = performance.timeOrigin + performance.now();
      let freshest = 0;
      for (const match of event.text.matchAll(STAMP))
        freshest = Math.max(freshest, Number(match[1]));
      if (freshest > 0) latencies.push(received - freshest);
    }
    if (
      event.type === "run.completed" ||
      event.type === "run.failed" ||
      event.type === "run.cancelled"
    ) {
      const waiter = waiting.get(event.run_id);
      if (waiter) {
        waiting.delete(event.run_id);
        waiter({ event, at: performance.now(), wall: performance.timeOrigin + performance.now() });
      }
    }
  });
  return {
    socket,
    ready: new Promise((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("connect_error", reject);
    }),
    join: (sessionId) => socket.timeout(10_000).emitWithAck("join-session", { sessionId }),
    end: (runId) => new Promise((resolve) => waiting.set(runId, resolve)),
    close: () => socket.close(),
  };
}

async function newSession(base, token, title) {
  return (await api(base, token, "POST", "/api/sessions", { title })).session.id;
}

const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

const MESSAGE = "Build a small task tracker with a REST API and a clean UI";

/** The provider's log of calls since the last reading (GET /log on the fake). */
async function providerLog(providerUrl) {
  return (await fetch(`${providerUrl}/log`)).json();
}

/**
 * A run's time in stages, from the client's POST (wall ms) and end receipt and the provider's
 * log of its 6 calls: head (POST → plan request), the gaps between the calls on the critical
 * path, the skew of the parallel pair's starts, the calls' time over the model time (the
 * fake's timer lateness plus reading), and tail (last token sent → the client seeing the end).
 */
function stagesOf(postWall, endWall, calls) {
  if (calls.length !== CALLS) return null;
  const [plan, strategist, a, b, critic, synthesis] = [...calls].sort(
    (x, y) => x.arrived - y.arrived,
  );
  const pairEnded = Math.max(a.ended, b.ended);
  return {
    head: plan.arrived - postWall,
    "plan → strategist": strategist.arrived - plan.ended,
    "strategist → coder ∥ designer": a.arrived - strategist.ended,
    "coder ∥ designer skew": b.arrived - a.arrived,
    "→ critic": critic.arrived - pairEnded,
    "critic → synthesis": synthesis.arrived - critic.ended,
    tail: endWall - synthesis.ended,
    "calls over model time": [plan, strategist, critic, synthesis].reduce(
      (sum, call) => sum + call.ended - call.arrived - MODEL_MS_PER_CALL,
      pairEnded - a.arrived - MODEL_MS_PER_CALL - (b.arrived - a.arrived),
    ),
  };
}

/** Runs one after another in one session; overhead = wall time − critical-path model time. */
async function measureOverhead(base, token, pid, providerUrl) {
  const latencies = [];
  const client = openSocket(base, token, latencies);
  await client.ready;
  const sessionId = await newSession(base, token, "overhead");
  await client.join(sessionId);
  const rows = [];
  const stages = [];
  let cpuBefore = 0;
  // The first runs warm up the JIT and connections; the rest are reported.
  const warmup = Math.min(3, OVERHEAD_RUNS - 1);
  await providerLog(providerUrl);
  for (let i = 0; i < OVERHEAD_RUNS; i++) {
    if (i === warmup) {
      cpuBefore = serverCpuMs(pid);
      latencies.length = 0;
    }
    const started = performance.now();
    const postWall = performance.timeOrigin + started;
    const { run_id } = await api(base, token, "POST", "/api/ai/chat", {
      session_id: sessionId,
      message: MESSAGE,
    });
    const { event, at, wall } = await client.end(run_id);
    if (event.type !== "run.completed") throw new Error(`run ended with ${event.type}`);
    if (i >= warmup) {
      rows.push({ wall: at - started, server: event.duration_ms });
      // Read between runs, outside the timed span (the server CPU it costs is the fake's).
      const split = stagesOf(postWall, wall, await providerLog(providerUrl));
      if (split) stages.push(split);
    } else await providerLog(providerUrl);
  }
  const cpuMs = serverCpuMs(pid) - cpuBefore;
  client.close();
  const critical = CRITICAL_CALLS * MODEL_MS_PER_CALL;
  return {
    runs: rows.length,
    critical,
    wall: mean(rows.map((r) => r.wall)),
    overhead: rows.map((r) => r.wall - critical),
    serverOverhead: rows.map((r) => r.server - critical),
    stages,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuPerRunMs: cpuMs / rows.length,
  };
}

/** The stages' means, "name m.m" joined. */
const describeStages = (stages) =>
  stages.length === 0
    ? "no run had exactly the 6 calls"
    : Object.keys(stages[0])
        .map((key) => `${key} ${fmt(mean(stages.map((s) => s[key])), 1)}`)
        .join(", ");

/**
 * A bare client of the fake provider: node:http over kept-alive connections, nothing stored
 * or sent. `call(plan)` makes one call and reads its stream to the end; every stamped chunk's
 * latency (provider send → receipt here) goes to `latencies` when given.
 */
function bareClient(providerUrl, latencies) {
  const url = new URL(`${providerUrl}/responses`);
  const agent = new Agent({ keepAlive: true });
  const input = [{ role: "user", content: [{ type: "input_text", text: MESSAGE }] }];
  const bodies = {
    text: JSON.stringify({ model: "gpt-4.1", input, stream: true }),
    plan: JSON.stringify({
      model: "gpt-4.1",
      input,
      stream: true,
      text: { format: { type: "json_object" } },
    }),
  };
  const call = (plan = false) =>
    new Promise((resolve, reject) => {
      const body = plan ? bodies.plan : bodies.text;
      const request = http.request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (response) => {
          response.setEncoding("utf8");
          let buffer = "";
          response.on("data", (text) => {
            if (!latencies) return;
            buffer += text;
            const events = buffer.split("\n\n");
            buffer = events.pop() ?? "";
            const received = performance.timeOrigin + performance.now();
            for (const event of events) {
              // Deltas only: the closing events repeat the whole text, stamps and all.
              if (!event.startsWith("event: response.output_text.delta")) continue;
              for (const match of event.matchAll(STAMP))
                latencies.push(received - Number(match[1]));
            }
          });
          response.on("end", resolve);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  return { call, close: () => agent.destroy() };
}

/**
 * The floor any engine stands on here: a bare client making the run's critical-path calls one
 * after another against the same fake provider, reading each stream to its end, storing and
 * sending nothing. Its overhead over the model time is what talking HTTP to the provider
 * costs on this machine before an engine does anything.
 */
async function measureFloor(providerUrl) {
  const client = bareClient(providerUrl);
  const overheads = [];
  for (let run = 0; run < OVERHEAD_RUNS; run++) {
    const started = performance.now();
    for (let i = 0; i < CRITICAL_CALLS; i++) await client.call();
    // The first runs open the connection and warm up, as in measureOverhead.
    if (run >= Math.min(3, OVERHEAD_RUNS - 1)) {
      overheads.push(performance.now() - started - CRITICAL_CALLS * MODEL_MS_PER_CALL);
    }
  }
  client.close();
  return overheads;
}

/**
 * The floor of the concurrency figure: `concurrency` runs of the engine's shape (plan →
 * strategist → coder ∥ designer → critic → synthesis) made by a bare client for the window,
 * each chunk's latency measured at receipt as for the server. No engine sustains more
 * concurrent runs on this machine than a client that does nothing with the chunks.
 */
async function measureFloorConcurrency(provider, concurrency) {
  const latencies = [];
  const client = bareClient(provider.url, latencies);
  const cpuBefore = { provider: serverCpuMs(provider.pid), client: process.cpuUsage() };
  const deadline = performance.now() + WINDOW_S * 1000;
  let completed = 0;
  const durations = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await client.call(true);
        await client.call();
        await Promise.all([client.call(), client.call()]);
        await client.call();
        await client.call();
        completed++;
        durations.push(performance.now() - started);
      }
    }),
  );
  const elapsed = (performance.now() - deadline) / 1000 + WINDOW_S;
  const providerCpuMs = serverCpuMs(provider.pid) - cpuBefore.provider;
  const clientCpu = process.cpuUsage(cpuBefore.client);
  client.close();
  return {
    concurrency,
    completed,
    failed: 0,
    // Share of one core used by the fake provider and by this bare client.
    providerShare: providerCpuMs / 1000 / elapsed,
    clientShare: (clientCpu.user + clientCpu.system) / 1e6 / elapsed,
    runsPerS: completed / elapsed,
    chunksPerS: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    runMs: mean(durations),
  };
}

/**
 * The highest concurrency whose chunk p99 stays under the target: C doubles (from `from`)
 * until a level misses and throughput stops growing, then bisects. `measure(c)` runs a level.
 */
async function scanConcurrency(measure, from = 1) {
  const levels = [];
  let pass = null;
  let fail = null;
  const level = async (c) => {
    const result = await measure(c);
    levels.push(result);
    return result;
  };
  const meets = (r) => r.p99 < P99_TARGET_MS && r.failed === 0;
  // Doubles past the first level over the target while throughput still grows (saturation).
  let previous = null;
  for (let c = from; c <= MAX_CONCURRENCY; c *= 2) {
    const result = await level(c);
    if (meets(result) && !fail) pass = result;
    else fail ??= result;
    if (fail && previous && result.runsPerS < previous.runsPerS * 1.1) break;
    previous = result;
  }
  // Bisect between the last level that passed and the first that did not.
  while (pass && fail && fail.concurrency - pass.concurrency > Math.max(1, pass.concurrency / 8)) {
    const result = await level(Math.round((pass.concurrency + fail.concurrency) / 2));
    if (meets(result)) pass = result;
    else fail = result;
  }
  const saturation = levels.reduce((best, r) => (r.runsPerS > best.runsPerS ? r : best), levels[0]);
  return { levels, pass, fail, saturation };
}

/**
 * The statements the server has sent so far, text → count, when it was started with
 * bench/count-statements.mjs (BENCH_ONLY=counts); null otherwise. Read after
 * `database.counters()`, whose wait lets the server write the file the signal asks for.
 */
const STATEMENTS_FILE = path.join(mkdtempSync(path.join(tmpdir(), "cohort-statements-")), "c.json");
const statementCounts = (pid) => {
  if (process.env.BENCH_ONLY !== "counts") return null;
  process.kill(pid, "SIGUSR2");
  return async () => JSON.parse(readFileSync(STATEMENTS_FILE, "utf8"));
};

/** Statements per run: a few runs in a row, alone, between two readings of the counters. */
async function measureStatements(base, token, database, pid, runs = 5) {
  const client = openSocket(base, token, null);
  await client.ready;
  const sessionId = await newSession(base, token, "statements");
  await client.join(sessionId);
  const readBefore = statementCounts(pid);
  const before = await database.counters();
  const textsBefore = await readBefore?.();
  for (let i = 0; i < runs; i++) {
    const { run_id } = await api(base, token, "POST", "/api/ai/chat", {
      session_id: sessionId,
      message: MESSAGE,
    });
    await client.end(run_id);
  }
  const readAfter = statementCounts(pid);
  const after = await database.counters();
  const textsAfter = await readAfter?.();
  client.close();
  const per = (key) => (after[key] - before[key]) / runs;
  const texts = textsAfter
    ? Object.entries(textsAfter)
        .map(([text, n]) => [text, (n - (textsBefore[text] ?? 0)) / runs])
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
    : null;
  return {
    commits: per("commits"),
    inserts: per("inserts"),
    updates: per("updates"),
    deletes: per("deletes"),
    statements: texts?.reduce((sum, [, n]) => sum + n, 0),
    // The run queue's workers poll for jobs on a timer, however many runs there are
    // (decision 083): counted apart, as they are not the run's.
    queuePolls: texts
      ?.filter(([text]) => text.includes("graphile_worker"))
      .reduce((sum, [, n]) => sum + n, 0),
    // Events are stored in batches, one per 50 ms while anything streams (decisions 048 and 049): their
    // count per run follows the run's wall time, which a loaded machine stretches.
    eventBatches: texts
      ?.filter(([text]) => text.includes("INSERT INTO run_events"))
      .reduce((sum, [, n]) => sum + n, 0),
    texts,
  };
}

async function measureConcurrency(base, token, concurrency, pid) {
  const latencies = [];
  const sockets = Array.from({ length: Math.ceil(concurrency / 10) }, () =>
    openSocket(base, token, latencies),
  );
  await Promise.all(sockets.map((s) => s.ready));
  const sessions = [];
  for (let i = 0; i < concurrency; i++) {
    const id = await newSession(base, token, `load ${concurrency}/${i}`);
    const client = sockets[i % sockets.length];
    await client.join(id);
    sessions.push({ id, client });
  }
  latencies.length = 0;
  const cpuBefore = serverCpuMs(pid);
  const deadline = performance.now() + WINDOW_S * 1000;
  let completed = 0;
  let failed = 0;
  const durations = [];
  await Promise.all(
    sessions.map(async ({ id, client }) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const { run_id } = await api(base, token, "POST", "/api/ai/chat", {
          session_id: id,
          message: MESSAGE,
        });
        const { event, at } = await client.end(run_id);
        if (event.type === "run.completed") completed++;
        else failed++;
        durations.push(at - started);
      }
    }),
  );
  const elapsed = (performance.now() - deadline) / 1000 + WINDOW_S;
  const cpuMs = serverCpuMs(pid) - cpuBefore;
  for (const s of sockets) s.close();
  return {
    concurrency,
    completed,
    failed,
    runsPerS: completed / elapsed,
    chunksPerS: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    runMs: mean(durations),
    cpuPerRunMs: cpuMs / Math.max(1, completed),
    cpuPerChunkMs: cpuMs / Math.max(1, completed * CALLS * CHUNKS),
    cpuShare: cpuMs / 1000 / elapsed,
  };
}

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const describeFloor = (r) =>
  `p99 ${fmt(r.p99, 0)} ms, p50 ${fmt(r.p50, 0)} ms, ${fmt(r.runsPerS)} runs/s, ${fmt(r.chunksPerS, 0)} chunks/s, run ${fmt(r.runMs, 0)} ms; CPU: fake provider ${fmt(r.providerShare * 100, 0)}% of a core, bare client ${fmt(r.clientShare * 100, 0)}%`;
const describe = (r) =>
  `p99 ${fmt(r.p99, 0)} ms, p50 ${fmt(r.p50, 0)} ms, ${fmt(r.runsPerS)} runs/s, ${fmt(r.chunksPerS, 0)} delta events/s, run ${fmt(r.runMs, 0)} ms, server CPU ${fmt(r.cpuPerRunMs, 0)} ms/run, ${fmt(r.cpuPerChunkMs, 2)} ms/chunk (${fmt(r.cpuShare * 100, 0)}% of a core), failed ${r.failed}`;

// Stopped by a signal, exit through the "exit" handlers so the fake provider and the anchor
// never outlive the benchmark.
process.once("SIGINT", () => process.exit(130));
process.once("SIGTERM", () => process.exit(143));

const ANCHOR_DIR = path.join(root, "bench/anchor");

/** The anchor's server (the Agents SDK), installed on first use apart from the app. */
async function startAnchor(providerUrl) {
  if (!existsSync(path.join(ANCHOR_DIR, "node_modules/@openai/agents/package.json"))) {
    console.log("installing the anchor (npm ci --prefix bench/anchor)…");
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const installed = spawnSync(
      npm,
      ["ci", "--prefix", ANCHOR_DIR, "--no-audit", "--no-fund", "--loglevel=error"],
      {
        stdio: "inherit",
      },
    );
    if (installed.status !== 0) throw new Error("could not install bench/anchor");
  }
  const child = spawn(process.execPath, [path.join(ANCHOR_DIR, "server.mjs")], {
    cwd: root,
    env: { PATH: process.env.PATH, OPENAI_BASE_URL: providerUrl, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolve);
    child.once("exit", () => reject(new Error("the anchor exited")));
  });
  process.once("exit", () => child.kill("SIGTERM"));
  return {
    url,
    child,
    rssMb: () => rssMb(child.pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

// BENCH_SERVER_ENTRY runs another server bundle (before/after comparisons on one machine).
const ENTRY = process.env.BENCH_SERVER_ENTRY ?? "apps/server/dist/main.js";
if (ENTRY === "apps/server/dist/main.js") await buildIfStale({ only: ["server"] });
const WITH_ANCHOR = process.env.BENCH_ANCHOR !== "0";
const SCAN_FROM = Number(process.env.BENCH_SCAN_FROM ?? 4);
const fake = await startFakeProvider({
  ttftMs: TTFT_MS,
  chunkMs: CHUNK_MS,
  chunks: CHUNKS,
  tail: TAIL,
  planJson: JSON.stringify(BENCH_PLAN),
});
const database = process.env.BENCH_DATABASE_URL
  ? await freshDatabase(process.env.BENCH_DATABASE_URL)
  : null;
const server = await startServer({
  entry: ENTRY,
  env: {
    LOG_LEVEL,
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
    SIGNUP_CREDITS: "1000000",
    ...BENCH_ADMIN_ENV,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fake.url,
    ...(database ? { DATABASE_URL: database.url } : {}),
    // BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops;
    // BENCH_ONLY=counts: the server counts the statements it sends (bench/count-statements.mjs).
    NODE_OPTIONS: [
      ...(process.env.BENCH_CPU_PROF
        ? [`--import ${path.join(root, "bench/cpu-profile.mjs")}`]
        : []),
      ...(process.env.BENCH_ONLY === "counts"
        ? [`--import ${path.join(root, "bench/count-statements.mjs")}`]
        : []),
      ...(process.env.BENCH_TIMELINE
        ? [`--import ${path.join(root, "bench/run-timeline.mjs")}`]
        : []),
    ].join(" "),
    ...(process.env.BENCH_CPU_PROF
      ? {
          BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF,
          BENCH_CPU_PROF_INTERVAL_US: process.env.BENCH_CPU_PROF_INTERVAL_US ?? "1000",
        }
      : {}),
    // BENCH_TIMELINE=file: the server writes when each request, statement and provider call
    // happened (bench/run-timeline.mjs; read with bench/timeline-summary.mjs).
    ...(process.env.BENCH_TIMELINE ? { BENCH_TIMELINE: process.env.BENCH_TIMELINE } : {}),
    BENCH_COUNT_STATEMENTS_FILE: STATEMENTS_FILE,
  },
});
const anchor =
  WITH_ANCHOR && !["overhead", "counts"].includes(process.env.BENCH_ONLY ?? "")
    ? await startAnchor(fake.url)
    : null;
const config = () =>
  `server ${ENTRY}, database ${database ? "PostgreSQL (fresh database)" : "PGlite (embedded)"}, LOG_LEVEL=${LOG_LEVEL}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, ${cpus().length} CPUs`;
const ONLY_OVERHEAD = Symbol("only the overhead");

/** Overhead and the concurrency scan of one engine (Cohort or the anchor). */
async function measureEngine(name, base, token, pid) {
  const overhead = await measureOverhead(base, token, pid, fake.url);
  console.log(
    `${name} overhead: mean ${fmt(mean(overhead.overhead), 1)} ms, p50 ${fmt(percentile(overhead.overhead, 0.5), 1)} ms; server CPU ${fmt(overhead.cpuPerRunMs, 1)} ms/run; freshest-token p99 ${fmt(overhead.p99, 0)} ms (${config()})`,
  );
  console.log(`${name} stages (mean ms): ${describeStages(overhead.stages)}`);
  if (process.env.BENCH_ONLY === "overhead") return { overhead };
  if (process.env.BENCH_ONLY === "counts") {
    // CPU per run with runs side by side (BENCH_COUNTS_C at a time, for BENCH_WINDOW_S).
    const loaded = await measureConcurrency(
      base,
      token,
      Number(process.env.BENCH_COUNTS_C ?? 8),
      pid,
    );
    console.log(
      `${name} C=${loaded.concurrency}: ${describe(loaded)} (load ${loadavg()[0].toFixed(1)})`,
    );
    if (!database) return { overhead };
    const counted = await measureStatements(base, token, database, pid, 10);
    console.log(
      `${name} database per run: ${fmt(counted.statements - counted.queuePolls, 1)} statements besides the run queue's ${fmt(counted.queuePolls, 1)} polls (${fmt(counted.statements - counted.queuePolls - counted.eventBatches, 1)} besides the ${fmt(counted.eventBatches, 1)} event batches too); ${fmt(counted.commits, 1)} commits (the polls and the readings' 11 s waits included), ${fmt(counted.inserts, 1)} rows inserted, ${fmt(counted.updates, 1)} updated, ${fmt(counted.deletes, 1)} deleted`,
    );
    for (const [text, n] of counted.texts) {
      console.log(`${fmt(n, 1).padStart(6)}  ${text.slice(0, 120)}`);
    }
    return { overhead };
  }
  const scan = await scanConcurrency(async (c) => {
    const result = await measureConcurrency(base, token, c, pid);
    console.log(`  ${name} C=${c}: ${describe(result)} (load ${loadavg()[0].toFixed(1)})`);
    return result;
  }, SCAN_FROM);
  return { overhead, ...scan };
}

const ratio = (a, b) =>
  Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${fmt(a / b, 2)}×` : "-";

try {
  console.log(`configuration: ${config()}`);
  const token = await signUpVerified(server.url);
  const floor = await measureFloor(fake.url);
  // The anchor's overhead first, then Cohort's, then each scan: the same minutes of the machine.
  const anchorOverhead = anchor
    ? await measureOverhead(anchor.url, "anchor", anchor.child.pid, fake.url)
    : null;
  if (anchorOverhead) {
    console.log(
      `Agents SDK overhead: mean ${fmt(mean(anchorOverhead.overhead), 1)} ms, p50 ${fmt(percentile(anchorOverhead.overhead, 0.5), 1)} ms; CPU ${fmt(anchorOverhead.cpuPerRunMs, 1)} ms/run; stages (mean ms): ${describeStages(anchorOverhead.stages)}`,
    );
  }
  const cohort = await measureEngine("Cohort", server.url, token, server.child.pid);
  // BENCH_ONLY=overhead stops here: the overhead alone, for before/after pairs of server
  // bundles (BENCH_SERVER_ENTRY) run one after another on the same machine.
  if (process.env.BENCH_ONLY === "overhead" || process.env.BENCH_ONLY === "counts")
    throw ONLY_OVERHEAD;
  const overhead = cohort.overhead;
  const { levels, pass, fail, saturation } = cohort;
  const anchorScan = anchor
    ? await scanConcurrency(async (c) => {
        const result = await measureConcurrency(anchor.url, "anchor", c, anchor.child.pid);
        console.log(`  Agents SDK C=${c}: ${describe(result)} (load ${loadavg()[0].toFixed(1)})`);
        return result;
      }, SCAN_FROM)
    : null;
  const statements = database
    ? await measureStatements(server.url, token, database, server.child.pid)
    : null;
  // BENCH_FLOOR_SCAN=1 adds the bare client's scan (7 or more windows of BENCH_WINDOW_S).
  const floorScan =
    process.env.BENCH_FLOOR_SCAN !== "1"
      ? null
      : await scanConcurrency(async (c) => {
          const result = await measureFloorConcurrency(fake, c);
          console.log(`  floor C=${c}: ${describeFloor(result)} (load ${loadavg()[0].toFixed(1)})`);
          return result;
        }, 4);

  const cohortP50 = percentile(overhead.overhead, 0.5);
  const anchorP50 = anchorOverhead ? percentile(anchorOverhead.overhead, 0.5) : Number.NaN;
  const capacity = (scan) => (scan?.pass ? scan.pass.concurrency : 0);
  const cpuAt = (scan) =>
    scan?.pass ? scan.pass.cpuPerRunMs : scan ? scan.levels[0].cpuPerRunMs : Number.NaN;
  const rows = [
    ["machine", `${machine()}, ${cpus().length} cores`],
    ["date", new Date().toISOString()],
    ["configuration", config()],
    [
      "fake provider",
      `own process, TTFT ${TTFT_MS} ms, ${CHUNKS} chunks ${CHUNK_MS} ms apart, each stamped with its send time; plan → strategist → coder ∥ designer → critic → synthesis (${CALLS} calls, ${CRITICAL_CALLS} deep: ${CRITICAL_CALLS * MODEL_MS_PER_CALL} ms of model time)`,
    ],
    [
      "anchor",
      anchor
        ? "OpenAI Agents SDK (@openai/agents, bench/anchor/server.mjs): the same team, the same HTTP + socket.io polling surface, nothing stored"
        : "left out (BENCH_ANCHOR=0)",
    ],
    [
      `concurrent runs at freshest-token p99 < ${P99_TARGET_MS} ms`,
      `Cohort ${capacity(cohort)}, Agents SDK ${anchorScan ? capacity(anchorScan) : "-"}: ratio ${ratio(capacity(cohort), capacity(anchorScan))} (goal ≥ 1.5× on PostgreSQL, ≥ 1× on PGlite)`,
    ],
    [
      "overhead per run over model time, p50",
      `Cohort ${fmt(cohortP50, 1)} ms, Agents SDK ${fmt(anchorP50, 1)} ms: ratio ${ratio(cohortP50, anchorP50)} (goal ≤ 1×)`,
    ],
    [
      "CPU per run at that concurrency",
      `Cohort ${fmt(cpuAt(cohort), 1)} ms, Agents SDK ${fmt(cpuAt(anchorScan), 1)} ms: ratio ${ratio(cpuAt(cohort), cpuAt(anchorScan))} (goal ≤ 1×)`,
    ],
    [
      `Cohort overhead (${overhead.runs} runs in a row)`,
      `p50 ${fmt(cohortP50, 1)} ms, mean ${fmt(mean(overhead.overhead), 1)} ms, p95 ${fmt(percentile(overhead.overhead, 0.95), 1)} ms (POST → run.completed at the client; run ${fmt(overhead.wall, 0)} ms); server side mean ${fmt(mean(overhead.serverOverhead), 1)} ms`,
    ],
    ["Cohort stages (mean ms)", describeStages(overhead.stages)],
    [
      "Agents SDK overhead",
      anchorOverhead
        ? `p50 ${fmt(anchorP50, 1)} ms, mean ${fmt(mean(anchorOverhead.overhead), 1)} ms, p95 ${fmt(percentile(anchorOverhead.overhead, 0.95), 1)} ms`
        : "-",
    ],
    ["Agents SDK stages (mean ms)", anchorOverhead ? describeStages(anchorOverhead.stages) : "-"],
    [
      `floor: a bare client, the same ${CRITICAL_CALLS} calls in a row`,
      `p50 ${fmt(percentile(floor, 0.5), 1)} ms, mean ${fmt(mean(floor), 1)} ms over the model time (node:http kept alive, nothing stored or sent: what HTTP to the provider costs here)`,
    ],
    [
      "freshest-token latency at C=1 (provider send → client)",
      `Cohort p50 ${fmt(overhead.p50, 1)} ms, p99 ${fmt(overhead.p99, 1)} ms; Agents SDK p50 ${fmt(anchorOverhead?.p50, 1)} ms, p99 ${fmt(anchorOverhead?.p99, 1)} ms`,
    ],
    [
      "Cohort: the level that passed / the first over",
      `${pass ? `${pass.concurrency}: ${describe(pass)}` : "none"} / ${fail ? `${fail.concurrency}: ${describe(fail)}` : `none up to ${MAX_CONCURRENCY}`}`,
    ],
    [
      "Agents SDK: the level that passed / the first over",
      anchorScan
        ? `${anchorScan.pass ? `${anchorScan.pass.concurrency}: ${describe(anchorScan.pass)}` : "none"} / ${anchorScan.fail ? `${anchorScan.fail.concurrency}: ${describe(anchorScan.fail)}` : `none up to ${MAX_CONCURRENCY}`}`
        : "-",
    ],
    [
      `floor: bare clients, runs of the same shape at p99 < ${P99_TARGET_MS} ms`,
      floorScan
        ? `${floorScan.pass ? `${floorScan.pass.concurrency}: ${describeFloor(floorScan.pass)}` : "none"}; first over: ${floorScan.fail ? `${floorScan.fail.concurrency}: ${describeFloor(floorScan.fail)}` : `none up to ${MAX_CONCURRENCY}`}; saturation ${fmt(floorScan.saturation.runsPerS)} runs/s (C=${floorScan.saturation.concurrency})`
        : "not measured (BENCH_FLOOR_SCAN=1 adds it)",
    ],
    [
      "runs/s at saturation",
      `Cohort ${fmt(saturation.runsPerS)} (C=${saturation.concurrency}, ${fmt(saturation.cpuShare * 100, 0)}% of a core)${anchorScan ? `, Agents SDK ${fmt(anchorScan.saturation.runsPerS)} (C=${anchorScan.saturation.concurrency}, ${fmt(anchorScan.saturation.cpuShare * 100, 0)}% of a core)` : ""}`,
    ],
    [
      "Cohort CPU per streamed chunk",
      pass
        ? `${fmt(pass.cpuPerChunkMs, 3)} ms at C=${pass.concurrency} (${CALLS * CHUNKS} provider chunks per run)`
        : `${fmt(levels[0].cpuPerChunkMs, 3)} ms at C=${levels[0].concurrency}`,
    ],
    [
      "database per run (POST included)",
      statements
        ? `${fmt(statements.commits, 1)} commits, ${fmt(statements.inserts, 1)} rows inserted, ${fmt(statements.updates, 1)} updated, ${fmt(statements.deletes, 1)} deleted (pg_stat_database)`
        : "counted on PostgreSQL only (BENCH_DATABASE_URL): the engine issues the same statements on PGlite",
    ],
    [
      "RSS at the end",
      `Cohort ${server.rssMb().toFixed(0)} MB${anchor ? `, Agents SDK ${anchor.rssMb().toFixed(0)} MB` : ""}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
} catch (error) {
  if (error !== ONLY_OVERHEAD) throw error;
} finally {
  await server.stop();
  await anchor?.stop();
  fake.stop();
  await database?.drop();
}

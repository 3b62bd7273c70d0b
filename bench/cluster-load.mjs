#!/usr/bin/env node
// `npm run bench:cluster`: the load of decision 046 on several instances. `npm run cluster`'s
// script (scripts/cluster.mjs, run as a child) starts 2 instances of the built server on one
// PostgreSQL database made for the bench and one Redis (a database index of its own) behind
// HAProxy with its sticky cookie; then:
//  1. CLIENTS socket.io clients on the polling transport, through HAProxy (each keeps its
//     COHORT_INSTANCE cookie: `withCredentials` gives engine.io-client a cookie jar in Node),
//     each signed in on its own (sign-up or log-in) and joined to one of SESSIONS session rooms;
//     memory per connected client = the growth of both instances' RSS ÷ clients.
//  2. One run per session streaming at once, for WINDOW_S (a session starts its next run when
//     one ends), against the fake provider of bench:orchestration in its own process, which
//     stamps each chunk with the time it was written: latency = that stamp → receipt by each
//     client of the session, over every delta event; split at the event's `at` (the instance
//     made the event). CPU per instance, HAProxy and this process over the window (/proc).
//  3. Authenticated GET /api/sessions through HAProxy (autocannon; a user with 50 sessions).
// Everything it starts (cluster, provider, database, Redis keys) is stopped or removed at the
// end, also on failure or Ctrl-C. Smaller runs: BENCH_CLIENTS=50 BENCH_SESSIONS=5.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";
import { io } from "socket.io-client";
import { buildIfStale } from "../scripts/build.mjs";
import { csrfHeaders } from "../test-support/api-client.mjs";
import { BENCH_PLAN, freePort, machine, root, serverCpuMs } from "./server.mjs";

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const INSTANCES = 2;
const CONNECTIONS = 50;
const LIST_SESSIONS = 50;
const TTFT_MS = 20;
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 50);
const CHUNKS = 20;
const TARGET_P99_MS = 100;
// A run whose end a client has not seen by then is counted as unseen, and the session goes on.
const RUN_END_WAIT_MS = 60_000;
const LOG_LEVEL = "warn";
const RATE_LIMIT = "1000000000";
const SIGNUP_LIMIT = "1000000";
const ADMIN_URL =
  process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "cohort_bench_cluster";
// Redis: database index 13 holds this bench's keys (emptied before and after). Pub/sub
// channels are server-wide in Redis, so the socket.io channel is shared by name with any
// other Cohort cluster on this Redis; rooms are session ids, so nothing is delivered across.
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/13";
const ADMIN = { email: "bench-admin@example.com", password: "bench admin passphrase 1" };
const PASSWORD = "benchmark passphrase 1";
const MESSAGE = "Build a small task tracker with a REST API and a clean UI";
const STAMP = /⟦t=(\d+\.\d+)⟧/g;

const load1 = () => loadavg()[0].toFixed(2);
const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted, p) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
/** The whole machine's busy and idle jiffies so far (/proc/stat), to show how shared it was. */
function machineTicks() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: user + nice + system + irq + softirq + steal, idle: idle + iowait };
}
/** TCP connections the machine dropped because a listen queue was full (all processes). */
function listenOverflows() {
  const lines = readFileSync("/proc/net/netstat", "utf8").split("\n");
  const at = lines.findIndex((l) => l.startsWith("TcpExt:"));
  const names = lines[at].split(/\s+/);
  const values = lines[at + 1].split(/\s+/);
  return Number(values[names.indexOf("ListenOverflows")] ?? 0);
}
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

const haproxyDowns = { count: 0 };

/** What was started, stopped in reverse order whatever happens. */
const cleanups = [];
async function cleanUp() {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try {
      await step();
    } catch (error) {
      console.error(`cleanup: ${error.message}`);
    }
  }
}
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`bench:cluster: ${signal}, stopping what it started`);
    void cleanUp();
  });
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freshDatabase() {
  await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${DATABASE}`);
  cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

async function emptyRedisDb() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.flushdb();
  await redis.quit();
}

/** Spawns a process whose first stdout line matching `ready` resolves; killed at the end. */
async function startProcess(what, args, { env, ready }) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killNow = () =>
    child.exitCode === null && child.signalCode === null && child.kill("SIGKILL");
  process.once("exit", killNow);
  const lines = createInterface({ input: child.stdout });
  child.stderr.on("data", (chunk) => {
    process.stderr.write(chunk);
    haproxyDowns.count += (chunk.toString().match(/ is DOWN/g) ?? []).length;
  });
  const line = await new Promise((resolve, reject) => {
    lines.on("line", (text) => {
      if (ready.test(text)) resolve(text);
      else if (/"level":(50|60)|error/i.test(text)) process.stderr.write(`[${what}] ${text}\n`);
    });
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
  });
  return { child, line };
}

async function stopProcess(child, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  if ((await Promise.race([exited, sleep(timeoutMs, "late")])) === "late") {
    child.kill("SIGKILL");
    await exited;
  }
}

/** Two consecutive free ports, for the instances (the cluster numbers them from the first). */
async function freePortPair() {
  const { createServer } = await import("node:net");
  const canListen = (port) =>
    new Promise((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
  for (;;) {
    const first = await freePort();
    if (await canListen(first + 1)) return first;
  }
}

/** The pids of the cluster's children: the instances (node …main.js) and HAProxy. */
function clusterChildren(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  const cmdline = (p) => readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ");
  return {
    instances: children.filter((p) => cmdline(p).includes("main.js")),
    haproxy: children.find((p) => cmdline(p).includes("haproxy")),
  };
}

async function startCluster(databaseUrl, providerUrl) {
  const port = await freePort();
  const firstPort = await freePortPair();
  const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-bench-cluster-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    PATH: process.env.PATH,
    PORT: String(port),
    CLUSTER_FIRST_PORT: String(firstPort),
    CLUSTER_INSTANCES: String(INSTANCES),
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL,
    LOG_FORMAT: "json",
    RATE_LIMIT_PER_MINUTE: RATE_LIMIT,
    SIGNUP_LIMIT_PER_HOUR: SIGNUP_LIMIT,
    SIGNUP_CREDITS: "1000000",
    SHUTDOWN_GRACE_SECONDS: "5",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: providerUrl,
  };
  const { child } = await startProcess("cluster", [path.join(root, "scripts/cluster.mjs")], {
    env,
    ready: /^cluster: \d+ instance\(s\) on ports/,
  });
  cleanups.push(() => stopProcess(child, 70_000));
  const base = `http://127.0.0.1:${port}`;
  // HAProxy checks readiness every second and needs two passes (rise 2) before it routes.
  for (let tries = 0; ; tries++) {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${base}/api/health/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    if (answers.every((s) => s === 200)) break;
    if (tries > 60) throw new Error(`HAProxy did not route to the instances: ${answers}`);
    await sleep(500);
  }
  await sleep(2500);
  return { base, pid: child.pid, ...clusterChildren(child.pid) };
}

async function startFakeProvider() {
  const settings = {
    ttftMs: TTFT_MS,
    chunkMs: CHUNK_MS,
    chunks: CHUNKS,
    tail: " Score: 8/10",
    planJson: JSON.stringify(BENCH_PLAN),
  };
  const { child, line } = await startProcess(
    "fake provider",
    [path.join(root, "bench/fake-provider.mjs"), JSON.stringify(settings)],
    { env: { PATH: process.env.PATH }, ready: /^http/ },
  );
  cleanups.push(() => stopProcess(child, 5000));
  return { url: line.trim(), pid: child.pid };
}

async function api(base, method, url, { token, body, headers = {} } = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // HAProxy answers 503 in HTML when no instance is up: said as such, not as a JSON error.
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 120)}`);
  return { json: JSON.parse(text), response };
}

/** Runs `task(i)` for i < count, `width` at a time. */
async function inBatches(count, width, task) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

/** A user as the web app makes one, email confirmed for the welcome credits. */
async function signUp(base, adminToken, label) {
  const { agreement } = (await api(base, "GET", "/api/agreements/current")).json;
  const headers = await csrfHeaders(base);
  const email = `bench-${label}-${Date.now()}-${Math.random().toString(16).slice(2)}@example.com`;
  const signedUp = await api(base, "POST", "/api/user-auth/signup", {
    body: {
      email,
      password: PASSWORD,
      firstName: "Bench",
      lastName: "Mark",
      agreementId: agreement.id,
    },
    headers,
  });
  const sessionCookie = [
    headers.cookie,
    ...signedUp.response.headers.getSetCookie().map((c) => c.split(";")[0]),
  ].join("; ");
  for (let tries = 0; tries < 100; tries++) {
    const { messages } = (await api(base, "GET", "/api/admin/outbox", { token: adminToken })).json;
    const link = messages
      .find((m) => m.to === email)
      ?.text.match(/\/verify-email\?token=([\w-]+)/)?.[1];
    if (link) {
      await api(base, "POST", "/api/user-auth/verify-email", {
        token: adminToken,
        body: { token: link },
      });
      return { email, token: signedUp.json.token, cookie: sessionCookie };
    }
    await sleep(100);
  }
  throw new Error(`no verification email reached ${email}`);
}

/** Another sign-in of the same user (another device): its own token. */
async function logIn(base, email) {
  const headers = await csrfHeaders(base);
  return (
    await api(base, "POST", "/api/user-auth/login", {
      body: { email, password: PASSWORD },
      headers,
    })
  ).json.token;
}

/**
 * SESSIONS users, each owning one session, and CLIENTS sign-ins spread over them: the owner's
 * sign-up is the first, the others log in as the same user from other devices.
 */
async function makeAccounts(base) {
  const admin = (
    await api(base, "POST", "/api/admin/login", {
      body: ADMIN,
      headers: { authorization: "Bearer bench" },
    })
  ).json.token;
  const owners = await inBatches(SESSIONS, 4, async (i) => {
    const user = await signUp(base, admin, `s${i}`);
    const { json } = await api(base, "POST", "/api/sessions", {
      token: user.token,
      body: { title: `Load ${i}` },
    });
    return { ...user, sessionId: json.session.id };
  });
  const tokens = await inBatches(CLIENTS, 8, async (i) => {
    const owner = owners[i % SESSIONS];
    return i < SESSIONS ? owner.token : logIn(base, owner.email);
  });
  return {
    admin,
    owners,
    clients: tokens.map((token, i) => ({ token, owner: owners[i % SESSIONS] })),
  };
}

// Polls over kept-alive connections, as a browser sends them. Every client keeps its own
// connections open, as each browser would: Node's default agent keeps at most 256 idle
// sockets per host and closes the rest, which for 1,000 "browsers" sharing one agent meant a
// new connection for most POSTs (and, behind HAProxy, for the instance too).
const pollingAgent = new Agent({ keepAlive: true, maxFreeSockets: Number.MAX_SAFE_INTEGER });

/** One client: connects through HAProxy, keeps its instance cookie, joins its session. */
async function connectClient(base, { token, owner }, samples) {
  const socket = io(base, {
    transports: ["polling"],
    auth: { token },
    reconnection: false,
    withCredentials: true,
    agent: pollingAgent,
  });
  // A run's end may arrive before the POST's answer does (a loaded machine): kept until asked for.
  const ends = new Map();
  const waiters = new Map();
  socket.on("disconnect", (reason) => {
    samples.disconnects.push(reason);
  });
  let lastSeq = 0;
  const counted = { events: 0 };
  socket.on("run-event", (event) => {
    if (samples.on) counted.events++;
    // Every stored event reaches every client of the room, in order: a jump is a lost event.
    if (event.seq > lastSeq + 1 && lastSeq > 0) samples.missing += event.seq - lastSeq - 1;
    lastSeq = Math.max(lastSeq, event.seq);
    if (event.type === "agent.delta" || event.type === "final.delta") {
      if (!samples.on) return;
      const received = now();
      const made = Date.parse(event.at);
      for (const match of event.text.matchAll(STAMP)) {
        const sent = Number(match[1]);
        samples.total.push(received - sent);
        samples.toEvent.push(made - sent);
        samples.toClient.push(received - made);
      }
    } else if (
      event.type === "run.completed" ||
      event.type === "run.failed" ||
      event.type === "run.cancelled"
    ) {
      const waiter = waiters.get(event.run_id);
      waiters.delete(event.run_id);
      if (waiter) waiter(event);
      else ends.set(event.run_id, event);
    }
  });
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  const joined = await socket
    .timeout(30_000)
    .emitWithAck("join-session", { sessionId: owner.sessionId });
  if (!joined.ok) throw new Error(`join-session: ${JSON.stringify(joined)}`);
  lastSeq = Math.max(lastSeq, joined.lastSeq);
  const instance = [...(socket.io.engine._cookieJar?.cookies ?? [])].find(
    ([name]) => name === "COHORT_INSTANCE",
  )?.[1].value;
  return {
    socket,
    instance: instance ?? "none",
    owner,
    end: (runId) =>
      new Promise((resolve) => {
        const ended = ends.get(runId);
        ends.delete(runId);
        if (ended) resolve(ended);
        else waiters.set(runId, resolve);
      }),
    lastSeq: () => lastSeq,
    counted,
  };
}

/** What the server stored of a run whose end no client saw: its last event's type. */
async function storedEnd(base, owner, runId) {
  const { json } = await api(base, "GET", `/api/sessions/${owner.sessionId}/events?limit=5000`, {
    token: owner.token,
  });
  const events = json.events.filter((e) => e.run_id === runId);
  return `${events.length} events, last ${events.at(-1)?.type ?? "none"}`;
}

/** CPU used since `before` (taken `started`), as shares of one core. */
function cpuSince(pids, before, started) {
  const elapsedS = (performance.now() - started) / 1000;
  const share = (ms) => ms / 1000 / elapsedS;
  const bench = process.cpuUsage(before.bench);
  const ticks = machineTicks();
  const busy = ticks.busy - before.machine.busy;
  const idle = ticks.idle - before.machine.idle;
  return {
    instances: pids.instances.map((p, i) => share(serverCpuMs(p) - before.instances[i])),
    haproxy: share(serverCpuMs(pids.haproxy) - before.haproxy),
    provider: share(serverCpuMs(pids.provider) - before.provider),
    bench: (bench.user + bench.system) / 1e6 / elapsedS,
    // jiffies are 10 ms: busy share of all cores, as cores
    machineBusy: (busy / (busy + idle)) * cpus().length,
  };
}

/** One run at a time per session for the window; the session's first client waits for each end. */
async function runWindow(base, sessions, pids, samples) {
  const cpuBefore = {
    instances: pids.instances.map((p) => serverCpuMs(p)),
    haproxy: serverCpuMs(pids.haproxy),
    provider: serverCpuMs(pids.provider),
    bench: process.cpuUsage(),
    machine: machineTicks(),
    overflows: listenOverflows(),
  };
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const started = performance.now();
  const deadline = started + WINDOW_S * 1000;
  // CPU over the window itself, every session streaming: the runs still going at its end, and
  // the wait for ends a dropped client never sees, would only thin it out.
  let windowCpu = null;
  const windowTimer = setTimeout(() => {
    windowCpu = cpuSince(pids, cpuBefore, started);
  }, WINDOW_S * 1000);
  samples.on = true;
  const outcomes = {
    completed: 0,
    failed: 0,
    unseen: 0,
    unseenDisconnected: 0,
    unseenStored: [],
    refused: [],
    durations: [],
    postMs: [],
  };
  await Promise.all(
    sessions.map(async ({ owner, watcher }) => {
      while (performance.now() < deadline && !interrupted) {
        const at = performance.now();
        let runId;
        try {
          runId = (
            await api(base, "POST", "/api/ai/chat", {
              token: owner.token,
              body: { session_id: owner.sessionId, message: MESSAGE },
            })
          ).json.run_id;
          outcomes.postMs.push(performance.now() - at);
        } catch (error) {
          outcomes.refused.push(error.message.slice(0, 160));
          await sleep(1000);
          continue;
        }
        const end = await Promise.race([
          watcher.end(runId),
          sleep(RUN_END_WAIT_MS, null, { ref: false }),
        ]);
        if (end === null) {
          outcomes.unseen++;
          if (!watcher.socket.connected) outcomes.unseenDisconnected++;
          outcomes.unseenStored.push(
            await storedEnd(base, owner, runId).catch((error) => error.message.slice(0, 80)),
          );
        } else if (end.type === "run.completed") outcomes.completed++;
        else outcomes.failed++;
        outcomes.durations.push(performance.now() - at);
      }
    }),
  );
  samples.on = false;
  lag.disable();
  clearTimeout(windowTimer);
  const elapsedS = (performance.now() - started) / 1000;
  return {
    ...outcomes,
    elapsedS,
    cpu: windowCpu ?? cpuSince(pids, cpuBefore, started),
    overflows: listenOverflows() - cpuBefore.overflows,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
  };
}

async function sessionsThroughput(base, admin) {
  const user = await signUp(base, admin, "list");
  for (let i = 0; i < LIST_SESSIONS; i++) {
    await api(base, "POST", "/api/sessions", { token: user.token, body: { title: `List ${i}` } });
  }
  const loadBefore = load1();
  const result = await autocannon({
    url: `${base}/api/sessions`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { cookie: user.cookie },
  });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    load: `${loadBefore}→${load1()}`,
  };
}

const rows = [];
const loadAtStart = load1();
try {
  // Before the cluster's own check, so its start-up does not include a build.
  await buildIfStale();
  await emptyRedisDb();
  cleanups.push(emptyRedisDb);
  const databaseUrl = await freshDatabase();
  const provider = await startFakeProvider();
  const cluster = await startCluster(databaseUrl, provider.url);
  const pids = { ...cluster, provider: provider.pid };
  if (pids.instances.length !== INSTANCES || !pids.haproxy) {
    throw new Error(
      `expected ${INSTANCES} instances and HAProxy under the cluster, found ${JSON.stringify(pids)}`,
    );
  }
  console.log(
    `cluster on ${cluster.base}: instances ${pids.instances.join(", ")}, HAProxy ${pids.haproxy}`,
  );

  let phase = performance.now();
  const accounts = await makeAccounts(cluster.base);
  const accountsS = (performance.now() - phase) / 1000;
  console.log(`${SESSIONS} users with a session, ${CLIENTS} sign-ins in ${fmt(accountsS)} s`);

  // The sign-ins' argon2 buffers are freed and trimmed over the next seconds: settle first.
  await sleep(15_000);
  const rssBefore = pids.instances.map(rssMb);
  const samples = {
    on: false,
    total: [],
    toEvent: [],
    toClient: [],
    disconnects: [],
    missing: 0,
  };
  // Two waves: a tenth, then the rest. The sign-ins' garbage is still being returned while the
  // first wave connects; the growth over the second wave is the clients'.
  const firstWave = Math.ceil(CLIENTS / 10);
  const clients = [];
  cleanups.push(() => {
    for (const c of clients) c.socket.close();
  });
  phase = performance.now();
  clients.push(
    ...(await inBatches(firstWave, 50, (i) =>
      connectClient(cluster.base, accounts.clients[i], samples),
    )),
  );
  let connectS = (performance.now() - phase) / 1000;
  await sleep(10_000);
  const rssWave = pids.instances.map(rssMb);
  phase = performance.now();
  clients.push(
    ...(await inBatches(CLIENTS - firstWave, 50, (i) =>
      connectClient(cluster.base, accounts.clients[firstWave + i], samples),
    )),
  );
  connectS += (performance.now() - phase) / 1000;
  await sleep(15_000);
  const rssAfter = pids.instances.map(rssMb);
  const spread = {};
  for (const c of clients) spread[c.instance] = (spread[c.instance] ?? 0) + 1;
  console.log(
    `${CLIENTS} clients connected and joined in ${fmt(connectS)} s: ${JSON.stringify(spread)}`,
  );

  const sessions = accounts.owners.map((owner) => ({
    owner,
    watcher: clients.find((c) => c.owner === owner),
  }));
  const loadBeforeRuns = load1();
  const window = await runWindow(cluster.base, sessions, pids, samples);
  const loadAfterRuns = load1();
  const rssDuring = pids.instances.map(rssMb);
  console.log(
    `runs: ${window.completed} completed, ${window.failed} failed, ${window.unseen} unseen, ${window.refused.length} refused in ${fmt(window.elapsedS)} s`,
  );

  const disconnects = samples.disconnects.length;
  const silent = clients.filter((c) => c.socket.connected && c.counted.events === 0).length;
  for (const c of clients) c.socket.close();
  await sleep(15_000);
  const rssClosed = pids.instances.map(rssMb);
  const list = await sessionsThroughput(cluster.base, accounts.admin);

  const sorted = (xs) => Float64Array.from(xs).sort();
  const total = sorted(samples.total);
  const toEvent = sorted(samples.toEvent);
  const toClient = sorted(samples.toClient);
  const spreadOf = (xs) =>
    `p50 ${fmt(percentile(xs, 0.5))} / p95 ${fmt(percentile(xs, 0.95))} / p99 ${fmt(percentile(xs, 0.99))} / max ${fmt(xs[xs.length - 1])} ms`;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const growth = sum(rssAfter) - sum(rssWave);
  const mb = (xs) => xs.map((x) => fmt(x, 0)).join(" + ");
  const pct = (x) => `${fmt(x * 100, 0)}%`;
  rows.push(
    ["machine", `${machine()}, ${cpus().length} cores`],
    ["date", new Date().toISOString()],
    [
      "configuration",
      `${INSTANCES} instances (scripts/cluster.mjs) behind HAProxy (cookie COHORT_INSTANCE), PostgreSQL database ${DATABASE}, Redis ${REDIS_URL}, LOG_LEVEL=${LOG_LEVEL}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT}, SIGNUP_LIMIT_PER_HOUR=${SIGNUP_LIMIT}, REALTIME_TRANSPORTS=polling (default)`,
    ],
    [
      "load",
      `${CLIENTS} polling clients (one process, this one) in ${SESSIONS} session rooms (${CLIENTS / SESSIONS} each), ${SESSIONS} runs streaming at once for ${WINDOW_S} s; fake provider in its own process: TTFT ${TTFT_MS} ms, ${CHUNKS} chunks ${CHUNK_MS} ms apart, 6 calls a run (5 deep)`,
    ],
    [
      "1-minute load average",
      `start ${loadAtStart}, before the runs ${loadBeforeRuns}, after ${loadAfterRuns}, end ${load1()}`,
    ],
    [
      "set-up",
      `${SESSIONS} sign-ups + ${CLIENTS - SESSIONS} log-ins ${fmt(accountsS)} s; ${CLIENTS} clients connected and joined ${fmt(connectS)} s`,
    ],
    [
      "clients per instance (cookie)",
      `${Object.entries(spread)
        .map(([k, v]) => `${k} ${v}`)
        .join(
          ", ",
        )}; ${disconnects} disconnected during the runs; ${silent} connected but received no event during the runs; ${samples.missing} events missing (seq gaps, all clients); HAProxy marked an instance down ${haproxyDowns.count} times; ${window.overflows} TCP connections dropped on full listen queues (whole machine) during the runs`,
    ],
    [
      "memory per connected client",
      `${fmt((growth * 1024) / (CLIENTS - firstWave), 1)} KB (RSS growth over the last ${CLIENTS - firstWave} clients; RSS ${mb(rssBefore)} MB → ${mb(rssWave)} MB with ${firstWave} → ${mb(rssAfter)} MB with ${CLIENTS} joined; ${mb(rssDuring)} MB after the runs, ${mb(rssClosed)} MB 15 s after the clients left)`,
    ],
    [
      "runs",
      `${window.completed} completed, ${window.failed} failed, ${window.unseen} without an end seen in ${RUN_END_WAIT_MS / 1000} s (${window.unseenDisconnected} of them by a disconnected client)${window.unseen ? ` (stored: ${[...new Set(window.unseenStored)].join("; ")})` : ""}, ${window.refused.length} refused${window.refused.length ? ` (first: ${window.refused[0]})` : ""} in ${fmt(window.elapsedS)} s (${fmt(window.completed / window.elapsedS)} runs/s), mean run ${fmt(window.durations.reduce((a, b) => a + b, 0) / Math.max(1, window.durations.length), 0)} ms (POST /api/ai/chat answered in p50 ${fmt(percentile(sorted(window.postMs), 0.5), 0)} / max ${fmt(Math.max(...window.postMs), 0)} ms)`,
    ],
    [
      "delta latency, provider → client",
      `${spreadOf(total)} over ${total.length} stamped chunks received (target p99 < ${TARGET_P99_MS} ms: ${percentile(total, 0.99) < TARGET_P99_MS ? "met" : "missed"})`,
    ],
    ["  provider → event made (instance)", spreadOf(toEvent)],
    ["  event made → client receipt", spreadOf(toClient)],
    [
      `CPU over the ${WINDOW_S} s window, every session streaming (share of one core)`,
      `instances ${window.cpu.instances.map(pct).join(" + ")}, HAProxy ${pct(window.cpu.haproxy)}, fake provider ${pct(window.cpu.provider)}, the clients (this process) ${pct(window.cpu.bench)}; the whole machine ${fmt(window.cpu.machineBusy, 2)} of ${cpus().length} cores busy; this process's event-loop delay p99 ${fmt(window.lagP99)} ms, max ${fmt(window.lagMax)} ms`,
    ],
    [
      `GET /api/sessions through HAProxy (${LIST_SESSIONS} sessions, ${CONNECTIONS} conns, ${DURATION_S} s)`,
      `${list.reqPerSec} req/s, p50 ${list.p50} ms, p99 ${list.p99} ms, non-2xx ${list.non2xx}, errors ${list.errors}, load ${list.load}`,
    ],
  );
} catch (error) {
  console.error(`bench:cluster: ${error.stack ?? error.message}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
  pollingAgent.destroy();
}
const width = Math.max(0, ...rows.map(([k]) => k.length));
for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);

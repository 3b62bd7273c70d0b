#!/usr/bin/env node
// `npm run bench:perceived-start`: how soon a person sees the team start (decision 079). The
// built server (one process, embedded PGlite) plans against a fake provider in its own
// process (bench/fake-provider.mjs) whose plan streams as ~4-character chunks and whose log
// has the wall-clock time each chunk was written. Measured per run, on the same machine's clock
// (performance.timeOrigin + performance.now() in every process):
//  1. provider's first plan chunk written → a Node socket.io client (polling, kept-alive
//     connections, as a browser holds them) receives the run's first plan.delta;
//  2. in Chromium (playwright-core, the session's page open and signed in): the first text of
//     the forming plan on screen — a MutationObserver sees the rationale or a step appear, and
//     the time is taken after the next frame (requestAnimationFrame, then a task) — against
//     the provider's first chunk, and against the first chunk whose text the draft shows
//     (the first character of the rationale).
// Each run is the first message of a new session whose page was just loaded, and is stopped
// once both have been seen; runs follow one another.
//   BENCH_RUNS (20), BENCH_PLAN_CHUNK_MS (15), BENCH_TTFT_MS (200), BENCH_BROWSER=0 (Node only),
//   BENCH_ONE_SESSION=1 (every run in one session, its page open throughout)
import { Agent } from "node:http";
import { cpus, loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "playwright-core";
import { io } from "socket.io-client";
import { buildIfStale } from "../scripts/build.mjs";
import { CHROMIUM_ARGS, findChromium } from "../scripts/find-chromium.mjs";
import { apiCall } from "../test-support/api-client.mjs";
import {
  BENCH_ADMIN_ENV,
  machine,
  signUpVerified,
  startFakeProvider,
  startServer,
} from "./server.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = 2;
const CHUNK_MS = Number(process.env.BENCH_PLAN_CHUNK_MS ?? 15);
const TTFT_MS = Number(process.env.BENCH_TTFT_MS ?? 200);
const WITH_BROWSER = process.env.BENCH_BROWSER !== "0";
/** All runs in one session (one page load): what a long conversation costs the page. */
const ONE_SESSION = process.env.BENCH_ONE_SESSION === "1";
const GOAL_MS = 100;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";

/** A plan of the size coordinators write: about 700 characters of JSON. */
const PLAN = {
  rationale:
    "A strategist frames the scope first; a coder and a designer then work side by side from that frame, and a critic reviews both drafts before the answer.",
  steps: [
    {
      id: "s1",
      role: "strategist",
      task: "Frame the task tracker: users, core flows, the data model and what is out of scope.",
      dependsOn: [],
    },
    {
      id: "s2",
      role: "coder",
      task: "Write the REST API for tasks (create, list, update, complete) with validation and tests.",
      dependsOn: ["s1"],
    },
    {
      id: "s3",
      role: "designer",
      task: "Design a clean list-and-detail UI for the tasks, with empty and error states.",
      dependsOn: ["s1"],
    },
    { id: "s4", role: "critic", task: "Review the API and the UI.", dependsOn: ["s2", "s3"] },
  ],
};
const PLAN_JSON = JSON.stringify(PLAN);
const CHUNKS = Math.ceil(PLAN_JSON.length / 4);
/** The fake's split of the plan (fake-provider.mjs planPieces): equal pieces. */
const PIECE = Math.ceil(PLAN_JSON.length / CHUNKS);
/** The first chunk after which the JSON so far holds a character of the rationale. */
const FIRST_TEXT_CHUNK = (() => {
  const opening = '{"rationale":"';
  for (let i = 0; i < CHUNKS; i++) if ((i + 1) * PIECE > opening.length) return i;
  return 0;
})();

const now = () => performance.timeOrigin + performance.now();
const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const fmt = (value) => (Number.isFinite(value) ? value.toFixed(1) : "n/a");
const summary = (values) =>
  `p50 ${fmt(percentile(values, 0.5))} ms, p95 ${fmt(percentile(values, 0.95))} ms, max ${fmt(
    values.length ? Math.max(...values) : Number.NaN,
  )} ms (n=${values.length})`;
const verdict = (values) => (percentile(values, 0.95) < GOAL_MS ? "✔" : "✘");

/** One JSON call as the page makes it: a Bearer token when signed in. */
const api = (base, token, method, url, body) =>
  apiCall(base, method, url, { bearer: token ?? undefined, body });

/** A Node client in the session's room: when each run's first plan.delta and its end arrived. */
async function nodeClient(base, token) {
  const socket = io(base, {
    transports: ["polling"],
    auth: { token },
    reconnection: false,
    agent: new Agent({ keepAlive: true }),
  });
  const firstPlan = new Map();
  const ended = new Map();
  const waiters = new Set();
  socket.on("run-event", (event) => {
    if (event.type === "plan.delta" && !firstPlan.has(event.run_id)) {
      firstPlan.set(event.run_id, now());
    }
    if (["run.completed", "run.failed", "run.cancelled"].includes(event.type)) {
      ended.set(event.run_id, event.type);
    }
    for (const wake of waiters) wake();
  });
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  const join = async (sessionId) => {
    const ack = await socket.timeout(10_000).emitWithAck("join-session", { sessionId });
    if (!ack.ok) throw new Error(`join: ${ack.error}`);
  };
  const until = async (check, what) => {
    const deadline = Date.now() + 30_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, 50);
      });
    }
  };
  return { firstPlan, ended, join, until, close: () => socket.close() };
}

/**
 * The session's page in Chromium, signed in; per run, when the forming plan's first text was
 * on screen (window.__planPainted[runId], wall-clock ms).
 */
async function browserPage(base, token) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("No Chromium found: install it or set CHROMIUM_PATH.");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies([
    { name: "cohort_session", value: token, url: base, httpOnly: true, sameSite: "Lax" },
  ]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const started = {};
    const painted = {};
    window.__planStarted = started;
    window.__planPainted = painted;
    const wall = () => performance.timeOrigin + performance.now();
    // On screen with the next frame: after its animation frame callbacks, a task.
    const onScreen = (times, id) => {
      times[id] = null;
      requestAnimationFrame(() => setTimeout(() => (times[id] = wall()), 0));
    };
    const check = () => {
      for (const run of document.querySelectorAll('[data-testid="run"]')) {
        const id = run.getAttribute("data-run-id");
        if (!id) continue;
        if (!(id in started) && run.querySelector('[data-testid^="plan-draft-"]')) {
          onScreen(started, id);
        }
        if (id in painted) continue;
        const shown = run.querySelector(
          '[data-testid="plan-draft-rationale"], [data-testid="plan-draft-step"]',
        );
        if (shown?.textContent) onScreen(painted, id);
      }
    };
    // When the browser had the poll answer that brought the plan's first text (socket.io's
    // polling is XMLHttpRequest in a browser): splits the time into network and screen.
    const received = {};
    window.__planReceived = received;
    const open = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (...args) {
      this.addEventListener("readystatechange", () => {
        if (this.readyState !== 4 || typeof this.responseText !== "string") return;
        const at = wall();
        for (const match of this.responseText.matchAll(
          /"type":"plan\.delta"[\s\S]*?"rationale":"([^"\\]?)[\s\S]*?"run_id":"([^"]+)"/g,
        )) {
          if (match[1] && !(match[2] in received)) received[match[2]] = at;
        }
      });
      return open.apply(this, args);
    };
    new MutationObserver(check).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return {
    /** Opens the session's page (a fresh load: the page holds one conversation). */
    async open(sessionId) {
      await page.goto(`/chat/${sessionId}`);
      await page.waitForSelector("textarea", { timeout: 30_000 });
    },
    painted: (runId) => page.evaluate((id) => window.__planPainted[id] ?? null, runId),
    started: (runId) => page.evaluate((id) => window.__planStarted[id] ?? null, runId),
    received: (runId) => page.evaluate((id) => window.__planReceived[id] ?? null, runId),
    close: () => browser.close(),
  };
}

await buildIfStale({ only: WITH_BROWSER ? ["server", "web"] : ["server"] });
const fake = await startFakeProvider({
  ttftMs: TTFT_MS,
  chunkMs: CHUNK_MS,
  chunks: CHUNKS,
  planJson: PLAN_JSON,
});
const server = await startServer({
  env: {
    LOG_LEVEL,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    SIGNUP_CREDITS: "1000000",
    ...BENCH_ADMIN_ENV,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fake.url,
  },
});
const base = server.url;
const token = await signUpVerified(base);
const client = await nodeClient(base, token);
const page = WITH_BROWSER ? await browserPage(base, token) : null;
const loadBefore = loadavg();

const toFirstEvent = [];
const toStartedFromFirst = [];
const toPaintedFromFirst = [];
const toPaintedFromText = [];
const toReceivedFromText = [];
await fetch(`${fake.url}/log`);
let session = null;
for (let i = 0; i < RUNS + WARMUP; i++) {
  // Each run in a new session, its page freshly open: the first message of a conversation
  // (BENCH_ONE_SESSION=1: all in one, the page open throughout).
  if (!ONE_SESSION || i === 0) {
    session = (await api(base, token, "POST", "/api/sessions", { title: `run ${i}` })).session;
    await client.join(session.id);
    await page?.open(session.id);
    await sleep(500);
  }
  const { run_id } = await api(base, token, "POST", "/api/ai/chat", {
    session_id: session.id,
    message: "Build a small task tracker with a REST API and a clean UI",
  });
  await client.until(() => client.firstPlan.has(run_id), "the first plan.delta");
  let painted = null;
  if (page) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      painted = await page.painted(run_id);
      if (painted !== null) break;
      if (Date.now() > deadline) throw new Error("the forming plan never appeared on screen");
      await sleep(20);
    }
  }
  await api(base, token, "POST", `/api/ai/chat/${run_id}/cancel`, {});
  await client.until(() => client.ended.has(run_id), "the run's end");
  const calls = await (await fetch(`${fake.url}/log`)).json();
  const plan = calls.filter((c) => c.json).sort((a, b) => a.arrived - b.arrived)[0];
  if (!plan || plan.sent.length === 0) throw new Error("the provider's log has no plan call");
  if (i < WARMUP) continue;
  const firstSent = plan.sent[0];
  toFirstEvent.push(client.firstPlan.get(run_id) - firstSent);
  if (painted !== null) {
    const started = await page.started(run_id);
    if (started !== null) toStartedFromFirst.push(started - firstSent);
    toPaintedFromFirst.push(painted - firstSent);
    const textSent = plan.sent[FIRST_TEXT_CHUNK];
    if (textSent !== undefined) {
      toPaintedFromText.push(painted - textSent);
      const received = await page.received(run_id);
      if (received !== null) toReceivedFromText.push(received - textSent);
    }
  }
}
const loadAfter = loadavg();
client.close();
await page?.close();
await server.stop();
fake.stop();

const load = (l) => l.map((x) => x.toFixed(2)).join(" ");
console.log(`\nPerceived start (decision 079) — ${machine()}, ${cpus().length} CPUs`);
console.log(
  `config: built server, PGlite (embedded), LOG_LEVEL=${LOG_LEVEL}; fake provider TTFT ${TTFT_MS} ms, plan ${PLAN_JSON.length} chars in ${CHUNKS} chunks ${CHUNK_MS} ms apart (first rationale text in chunk ${FIRST_TEXT_CHUNK + 1}); ${RUNS} runs after ${WARMUP} warm-up, ${ONE_SESSION ? "all in one session (its page open throughout)" : `each the first message of a new session${WITH_BROWSER ? " (its page freshly loaded)" : ""}`}, stopped once its plan showed; socket.io polling, kept-alive; ${WITH_BROWSER ? "Chromium headless" : "no browser"}`,
);
console.log(`load average before ${load(loadBefore)}, after ${load(loadAfter)}`);
console.log(
  `provider's first plan chunk → Node client's first plan.delta: ${summary(toFirstEvent)}  goal < ${GOAL_MS} ms (p95) ${verdict(toFirstEvent)}`,
);
if (page) {
  console.log(
    `provider's first plan chunk → the forming plan on screen ("Writing the plan…", Chromium): ${summary(toStartedFromFirst)}  goal < ${GOAL_MS} ms (p95) ${verdict(toStartedFromFirst)}`,
  );
  console.log(
    `provider's first plan chunk → first plan text on screen (Chromium): ${summary(toPaintedFromFirst)}  goal < ${GOAL_MS} ms (p95) ${verdict(toPaintedFromFirst)}`,
  );
  console.log(
    `provider's first chunk with rationale text → that text on screen (Chromium): ${summary(toPaintedFromText)}`,
  );
  console.log(
    `  of which: → the browser has the poll answer with it: ${summary(toReceivedFromText)}`,
  );
}

#!/usr/bin/env node
// `npm run bench:long-session`: a long session in a real browser (decision 077). The built
// server (one process, embedded PGlite unless BENCH_DATABASE_URL names a PostgreSQL server:
// then a fresh database is made there and dropped after) with the simulator for a model.
// Measured from outside, as a person at a browser sees it:
//  1. Open: headless Chromium opens /chat/<session> of a session with 200 runs (1,000 model
//     steps, ~2 MB of text); the time from navigation start until the latest run's answer is
//     on screen (a marker word in it, inside the viewport), read in the page.
//  2. Memory: the page's JS heap after a garbage collection (CDP Performance.getMetrics,
//     JSHeapUsedSize), its DOM node count, and the renderer process's resident memory (PSS
//     from /proc, every renderer of this browser).
//  3. Streaming: a new run sent from the page's composer; the frames the page paints while
//     its text streams in (a requestAnimationFrame counter: frames per second, the longest
//     frame and the frames over 50 ms).
// Seeding (documented in decision 077): one real run through the API on the simulator, its
// JSON export (GET /api/sessions/:id/export) copied into 200 runs with fresh ids and longer
// texts, and imported as a new session (POST /api/sessions/import), the way a person brings
// a session from another server. The runs come in marked imported; they are stored in the
// same tables and drawn by the same components as runs made here.
// BENCH_RUNS (200), BENCH_TEXT_KB (2,048), BENCH_TOKENS_PER_SECOND (240: the streamed run's
// speed) change the sizes; BENCH_HEADED=1 shows the browser; BENCH_SCREENSHOTS=<dir> saves
// the opened session and its top (the way to the earlier runs) as PNGs.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { isRunActive, SIGN_IN_COOKIE } from "@cohort/contracts";
import pg from "pg";
import { chromium } from "playwright-core";
import { buildIfStale } from "../scripts/build.mjs";
import { CHROMIUM_ARGS, findChromium } from "../scripts/find-chromium.mjs";
import { BENCH_ADMIN_ENV, machine, signUpVerified, startServer } from "./server.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const TEXT_BYTES = Number(process.env.BENCH_TEXT_KB ?? 2048) * 1024;
const TOKENS_PER_SECOND = Number(process.env.BENCH_TOKENS_PER_SECOND ?? 240);
const GOALS = { openMs: 1000, heapMb: 150, fps: 60 };
/** A frame "kept" at 60 fps lasts 16.7 ms; rAF at 60 Hz measures 58–60 on a kept page. */
const FPS_TOLERANCE = 0.95;
const MARKER = "Zebracorn";

/** One JSON call with a Bearer token; also how many bytes the answer was (what a page downloads). */
async function api(base, token, method, url, body) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 500)}`);
  return { json: text ? JSON.parse(text) : undefined, bytes: Buffer.byteLength(text) };
}

async function waitForRun(base, token, sessionId, count) {
  for (;;) {
    // The newest run in full, the rest outlined (decision 077): polling stays light.
    const { json } = await api(base, token, "GET", `/api/sessions/${sessionId}?runs=1`);
    const run = json.runs[count - 1];
    if (run && !isRunActive(run.status)) return run;
    await sleep(200);
  }
}

/** Filler Markdown of about `bytes`, a paragraph and a list, different per step. */
function filler(bytes, seed) {
  const words = ["plan", "market", "latency", "budget", "schema", "design", "review", "launch"];
  let out = "";
  let i = seed;
  while (out.length < bytes) {
    const sentence = Array.from({ length: 14 }, () => words[(i++ * 7) % words.length]).join(" ");
    out += i % 5 === 0 ? `\n- ${sentence}.` : ` ${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
    if (i % 40 === 0) out += "\n\n";
  }
  return out;
}

/** The one real run's export, copied into `count` runs with fresh ids and their share of TEXT_BYTES per step. */
function longExport(template, count = RUNS) {
  const [run] = template.runs;
  const question = template.messages.find((m) => m.id === run.message_id);
  const answer = template.messages.find((m) => m.id === run.result_message_id);
  const stepBytes = Math.floor(TEXT_BYTES / (RUNS * run.steps.length));
  const messages = [];
  const runs = [];
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  for (let n = 0; n < count; n++) {
    const at = (offset) => new Date(start + n * 60_000 + offset).toISOString();
    const ids = { run: randomUUID(), message: randomUUID(), answer: randomUUID() };
    const stepIds = new Map(run.steps.map((s) => [s.id, randomUUID()]));
    const last = n === count - 1;
    const steps = run.steps.map((step, s) => {
      const text = filler(stepBytes, n * 31 + s);
      const output =
        step.kind === "synthesis" && last ? `${MARKER}: the latest answer. ${text}` : text;
      return {
        ...step,
        id: stepIds.get(step.id),
        rerun_of: step.rerun_of ? stepIds.get(step.rerun_of) : null,
        output,
        started_at: at(1000),
        finished_at: at(2000),
      };
    });
    const synthesis = steps.find((s) => s.kind === "synthesis");
    messages.push(
      {
        ...question,
        id: ids.message,
        run_id: ids.run,
        content: `Question ${n + 1}: ${question.content}`,
        created_at: at(0),
        parent_run_id: runs.at(-1)?.id ?? null,
        shown_at: at(0),
      },
      {
        ...answer,
        id: ids.answer,
        run_id: ids.run,
        content: synthesis?.output ?? answer.content,
        created_at: at(3000),
        shown_at: at(3000),
      },
    );
    runs.push({
      ...run,
      id: ids.run,
      message_id: ids.message,
      result_message_id: ids.answer,
      steps,
      critic_verdicts: run.critic_verdicts.map((v) => ({
        ...v,
        call_id: stepIds.get(v.call_id) ?? v.call_id,
        rerun_call_id: v.rerun_call_id ? stepIds.get(v.rerun_call_id) : undefined,
      })),
      tool_calls: [],
      created_at: at(0),
      finished_at: at(3000),
    });
  }
  return { ...template, title: "Long session", messages, runs };
}

/** Resident memory (PSS, MB) of this browser's renderer processes: CDP names them, /proc sizes them. */
async function rendererPssMb(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  await cdp.detach();
  let kb = 0;
  for (const { id, type } of processInfo) {
    if (type !== "renderer") continue;
    try {
      kb += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${id}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      return null;
    }
  }
  return kb / 1024;
}

/** Opens the session three times; each: when the latest answer showed, and the calls before it. */
async function measureOpens(page, base, sessionId) {
  const opens = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(`${base}/chat/${sessionId}`);
    await page.waitForFunction(() => typeof window.__latestVisibleAt === "number", null, {
      timeout: 120_000,
    });
    opens.push(
      await page.evaluate((id) => {
        const detail = performance
          .getEntriesByType("resource")
          .find((e) => new URL(e.name).pathname === `/api/sessions/${id}`);
        const [nav] = performance.getEntriesByType("navigation");
        // The app's calls before the detail: the boot's own waterfall (sign-in, agreement…).
        const calls = performance
          .getEntriesByType("resource")
          .filter((e) => new URL(e.name).pathname.startsWith("/api/"))
          .filter((e) => e.startTime < (detail?.startTime ?? Number.POSITIVE_INFINITY))
          .map(
            (e) =>
              `${new URL(e.name).pathname} ${e.startTime.toFixed(0)}–${e.responseEnd.toFixed(0)}`,
          );
        return {
          calls,
          at: window.__latestVisibleAt,
          domContentLoaded: nav?.domContentLoadedEventEnd ?? null,
          detailStart: detail?.startTime ?? null,
          detailEnd: detail?.responseEnd ?? null,
        };
      }, sessionId),
    );
  }
  opens.sort((a, b) => a.at - b.at);
  return opens;
}

/** Sends a message from the page and counts the frames painted until its run ends. */
async function measureStream(page, base, token, sessionId, runCount) {
  await page.getByTestId("composer-input").fill("One more question, streamed.");
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.getByTestId("composer-input").press("Enter");
  const streamStarted = Date.now();
  await waitForRun(base, token, sessionId, runCount);
  const streamSeconds = (Date.now() - streamStarted) / 1000;
  const frames = await page.evaluate(() => {
    window.__stopFrames = true;
    return window.__frames;
  });
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const spanMs = frames.at(-1) - frames[0];
  const fps = (frames.length - 1) / (spanMs / 1000);
  const longest = Math.max(...gaps);
  const over50 = gaps.filter((g) => g > 50).length;
  const sortedGaps = [...gaps].sort((a, b) => a - b);
  const p95Gap = sortedGaps[Math.floor(sortedGaps.length * 0.95)];
  return { fps, p95Gap, longest, over50, streamSeconds };
}

async function freshDatabase(url) {
  const name = `cohort_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

const mark = (ok) => (ok ? "✔" : "✘");
const executablePath = findChromium();
if (!executablePath) throw new Error("No Chromium found: install it or set CHROMIUM_PATH.");

await buildIfStale();
const database = process.env.BENCH_DATABASE_URL
  ? await freshDatabase(process.env.BENCH_DATABASE_URL)
  : null;
const server = await startServer({
  env: {
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "1000000",
    SIGNUP_LIMIT_PER_HOUR: "1000000",
    TELEMETRY_LOGS_PER_MINUTE: "100000",
    TELEMETRY_ANALYTICS_PER_MINUTE: "100000",
    SIMULATOR_TOKENS_PER_SECOND: String(TOKENS_PER_SECOND),
    ...BENCH_ADMIN_ENV,
    ...(database ? { DATABASE_URL: database.url } : {}),
  },
});
const base = server.url;
let browser;
try {
  const token = await signUpVerified(base);
  // The template: one real run of a four-agent team (plan, four drafts, the answer).
  const { json: created } = await api(base, token, "POST", "/api/sessions", {
    title: "Template",
    manual_agent_selection: true,
    agent_preferences: {
      strategist: { enabled: true, model: "coreason" },
      coder: { enabled: true, model: "cologic" },
      designer: { enabled: true, model: "coreason" },
      critic: { enabled: true, model: "coreason" },
    },
  });
  const templateId = created.session.id;
  await api(base, token, "POST", "/api/ai/chat", {
    session_id: templateId,
    message: "Plan the launch of our app.",
  });
  await waitForRun(base, token, templateId, 1);
  const { json: template } = await api(
    base,
    token,
    "GET",
    `/api/sessions/${templateId}/export?format=json`,
  );
  const seeded = longExport(template);
  const seedStarted = performance.now();
  const importBytes = Buffer.byteLength(JSON.stringify(seeded));
  const { json: imported } = await api(base, token, "POST", "/api/sessions/import", seeded);
  const sessionId = imported.session_id;
  const seedMs = performance.now() - seedStarted;
  const steps = seeded.runs.reduce((sum, run) => sum + run.steps.length, 0);
  const textBytes = seeded.runs.reduce(
    (sum, run) => sum + run.steps.reduce((s, step) => s + Buffer.byteLength(step.output ?? ""), 0),
    0,
  );

  // What a client downloads to open it (median of 5, warm).
  const detailMs = [];
  let detailBytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const { bytes } = await api(base, token, "GET", `/api/sessions/${sessionId}`);
    detailMs.push(performance.now() - t);
    detailBytes = bytes;
  }
  detailMs.sort((a, b) => a - b);
  // What the conversation asks for since decision 077: the newest runs in full, the rest outlined.
  const pagedMs = [];
  let pagedBytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const { bytes } = await api(base, token, "GET", `/api/sessions/${sessionId}?runs=10`);
    pagedMs.push(performance.now() - t);
    pagedBytes = bytes;
  }
  pagedMs.sort((a, b) => a - b);

  browser = await chromium.launch({
    executablePath,
    headless: process.env.BENCH_HEADED !== "1",
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 1360, height: 960 } });
  await context.addCookies([
    { name: SIGN_IN_COOKIE, value: token, url: base, httpOnly: true, sameSite: "Lax" },
  ]);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  // Warm the browser's cache with the app's files, as a returning user has them.
  await page.goto(`${base}/chat`);
  await page.waitForLoadState("load");
  await sleep(1000);
  await page.addInitScript((marker) => {
    // Each frame: is the marker word inside the viewport yet? The first frame it is, counts.
    const look = () => {
      const hit = document.evaluate(
        `//*[contains(text(), '${marker}')]`,
        document.body ?? document.documentElement,
        null,
        XPathResult.FIRST_ORDERED_NODE_TYPE,
        null,
      ).singleNodeValue;
      if (hit instanceof Element) {
        const box = hit.getBoundingClientRect();
        if (box.height > 0 && box.top < window.innerHeight && box.bottom > 0) {
          window.__latestVisibleAt = performance.now();
          return;
        }
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, MARKER);

  const opens = await measureOpens(page, base, sessionId);
  if (process.env.BENCH_SCREENSHOTS) {
    // What a person sees: the session opened on its newest runs, then its top with the way to
    // the earlier ones.
    const dir = process.env.BENCH_SCREENSHOTS;
    await page.screenshot({ path: `${dir}/long-session-open.png` });
    await page.getByText("Load earlier runs").first().scrollIntoViewIfNeeded();
    // Two frames: turns skipped off screen (content-visibility) are painted once they are on it.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await page.screenshot({ path: `${dir}/long-session-top.png` });
  }
  opens.sort((a, b) => a.at - b.at);
  const openMs = opens[1].at;
  const ms = (v) => (v === null ? "n/a" : `${v.toFixed(0)} ms`);

  await page.waitForLoadState("load");
  await sleep(1000);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("HeapProfiler.collectGarbage");
  const metrics = Object.fromEntries(
    (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
  );
  const heapMb = metrics.JSHeapUsedSize / 1024 / 1024;
  const nodes = metrics.Nodes;
  const pssMb = await rendererPssMb(browser);

  // A new run streamed into the long session, sent from the page.
  const stream = await measureStream(page, base, token, sessionId, RUNS + 1);
  const { fps, p95Gap, longest, over50, streamSeconds } = stream;
  const after = Object.fromEntries(
    (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
  );

  // The floor, in the same run on the same machine: a one-run session opened and streamed into
  // the same way (what the app's boot and one open run cost now, whatever the history).
  const { json: floorImport } = await api(
    base,
    token,
    "POST",
    "/api/sessions/import",
    longExport(template, 1),
  );
  const floorOpens = await measureOpens(page, base, floorImport.session_id);
  const floorStream = await measureStream(page, base, token, floorImport.session_id, 2);

  const [l1, l5] = loadavg();
  console.log(`\nLong session — bench/long-session.mjs (decision 077)`);
  console.log(
    `machine: ${machine()}, ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GB; load avg ${l1.toFixed(2)} / ${l5.toFixed(2)} (1/5 min)`,
  );
  console.log(
    `database: ${database ? "PostgreSQL (BENCH_DATABASE_URL, fresh database)" : "embedded PGlite"}; browser: ${executablePath} (${browser.version()}), headless, 1360×960`,
  );
  console.log(
    `session: ${RUNS} runs, ${steps} model steps, ${(textBytes / 1e6).toFixed(2)} MB of step text; import ${(importBytes / 1e3).toFixed(0)} kB answered in ${seedMs.toFixed(0)} ms`,
  );
  console.log(
    `GET /api/sessions/:id: ${(detailBytes / 1e6).toFixed(2)} MB, median ${detailMs[2].toFixed(0)} ms; ?runs=10 (the page's since decision 077): ${(pagedBytes / 1e6).toFixed(2)} MB, median ${pagedMs[2].toFixed(0)} ms (5 warm calls each)`,
  );
  console.log("");
  console.log(
    `${mark(openMs < GOALS.openMs)} open to the latest answer on screen: median ${openMs.toFixed(0)} ms of 3 (${opens.map((o) => o.at.toFixed(0)).join(", ")}); goal < ${GOALS.openMs} ms`,
  );
  console.log(
    `   the median open: DOMContentLoaded ${ms(opens[1].domContentLoaded)}, session detail asked at ${ms(opens[1].detailStart)}, answered at ${ms(opens[1].detailEnd)}`,
  );
  console.log(
    `   API calls before it (ms from navigation): ${opens[1].calls.join(", ") || "none"}`,
  );
  console.log(
    `${mark(heapMb < GOALS.heapMb)} JS heap after GC: ${heapMb.toFixed(1)} MB (${nodes} DOM nodes; renderer PSS ${pssMb === null ? "n/a" : `${pssMb.toFixed(0)} MB`}); goal < ${GOALS.heapMb} MB`,
  );
  console.log(
    `${mark(fps >= GOALS.fps * FPS_TOLERANCE)} streaming a new run (${streamSeconds.toFixed(1)} s at ${TOKENS_PER_SECOND} tokens/s): ${fps.toFixed(1)} fps, p95 frame ${p95Gap.toFixed(1)} ms, longest ${longest.toFixed(0)} ms, ${over50} frames > 50 ms; goal 60 fps (≥ ${GOALS.fps * FPS_TOLERANCE})`,
  );
  console.log(
    `floor (a 1-run session, same run): open median ${floorOpens[1].at.toFixed(0)} ms (${floorOpens.map((o) => o.at.toFixed(0)).join(", ")}); streaming ${floorStream.fps.toFixed(1)} fps, p95 frame ${floorStream.p95Gap.toFixed(1)} ms, ${floorStream.over50} frames > 50 ms`,
  );
  console.log(
    `   JS heap after the stream: ${(after.JSHeapUsedSize / 1024 / 1024).toFixed(1)} MB, ${after.Nodes} DOM nodes`,
  );
} finally {
  await browser?.close();
  await server.stop();
  await database?.drop();
}

#!/usr/bin/env node
// `npm run bench:api`: throughput and latency of the API platform, cold start, idle memory
// and the landing page's initial JavaScript. Targets (Foundation issue) on a 2-core machine:
// ≥ 8,000 req/s on /api/health, cold start < 2 s, idle RSS < 200 MB, landing JS ≤ 120 KB gzip.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { CHROMIUM_ARGS, findChromium } from "../scripts/find-chromium.mjs";
import { machine, root, startServer } from "./server.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;
// What the figures depend on, printed beside them (the machine may be shared).
const LOG_LEVEL = "info";
const RATE_LIMIT = "1000000000";
const load1 = () => loadavg()[0].toFixed(2);

async function load(url, title) {
  const loadBefore = load1();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, title });
  return {
    load: `${loadBefore}→${load1()}`,
    title,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function landingInitialJs(baseUrl) {
  const executablePath = findChromium();
  const dist = path.join(root, "apps/web/dist");
  const gzipKb = (files) =>
    files.reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length,
      0,
    ) / 1024;
  if (!executablePath) {
    const html = readFileSync(path.join(dist, "index.html"), "utf8");
    const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    return {
      kb: gzipKb(files),
      files,
      how: "index.html scripts only (no Chromium to load the page)",
    };
  }
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const files = new Set();
  page.on("response", (response) => {
    const pathname = new URL(response.url()).pathname;
    if (pathname.endsWith(".js")) files.add(pathname.slice(1));
  });
  await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
  await browser.close();
  return {
    kb: gzipKb([...files]),
    files: [...files],
    how: "every script Chromium loads for / (gzip -9)",
  };
}

// First start: a new data directory (./data on a fresh install). A new embedded database is a
// copy of a template built once per PGlite version and migration set (decision 020); whether
// it was there before this run says which first start this is.
const templateCached = existsSync(path.join(root, "node_modules/.cache/cohort"));
const freshLoad = load1();
const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "cohort-bench-")), "data");
mkdirSync(dataDir);
const fresh = await startServer({ dataDir });
const coldFreshMs = fresh.startMs;
await fresh.stop();

// Restarts on that data directory: the median of three, the machine being shared.
const restartLoad = load1();
const restarts = [];
for (let i = 0; i < 2; i++) {
  const again = await startServer({ dataDir });
  restarts.push(again.startMs);
  await again.stop();
}
const server = await startServer({
  dataDir,
  env: { RATE_LIMIT_PER_MINUTE: RATE_LIMIT, LOG_LEVEL },
});
restarts.push(server.startMs);
const coldMs = restarts.sort((a, b) => a - b)[1];
await new Promise((r) => setTimeout(r, 3000));
const idleRssMb = server.rssMb();

let postgresRssMb = null;
if (process.env.BENCH_DATABASE_URL) {
  // The same idle measurement with PostgreSQL instead of the embedded PGlite engine.
  const onPostgres = await startServer({ env: { DATABASE_URL: process.env.BENCH_DATABASE_URL } });
  await new Promise((r) => setTimeout(r, 3000));
  postgresRssMb = onPostgres.rssMb();
  await onPostgres.stop();
}

const health = await load(`${server.url}/api/health`, "GET /api/health");
const csrf = await load(`${server.url}/api/csrf-token`, "GET /api/csrf-token");
const landing = await landingInitialJs(server.url);
await server.stop();

const rows = [
  ["machine", `${machine()}, ${cpus().length} cores`],
  ["date", new Date().toISOString()],
  [
    "configuration",
    `embedded PGlite, LOG_LEVEL=${LOG_LEVEL}, RATE_LIMIT_PER_MINUTE=${RATE_LIMIT} (health is never limited)`,
  ],
  [
    `${health.title} req/s (${CONNECTIONS} conns, ${DURATION_S} s)`,
    `${health.reqPerSec} (p50 ${health.p50} ms, p99 ${health.p99} ms, non-2xx ${health.non2xx}, errors ${health.errors}, load ${health.load})`,
  ],
  [
    `${csrf.title} req/s (${CONNECTIONS} conns, ${DURATION_S} s)`,
    `${csrf.reqPerSec} (p50 ${csrf.p50} ms, p99 ${csrf.p99} ms, non-2xx ${csrf.non2xx}, errors ${csrf.errors}, load ${csrf.load})`,
  ],
  [
    "cold start to first 200, new data dir",
    `${coldFreshMs.toFixed(0)} ms (PGlite template ${templateCached ? "already built" : "built by this start"}, load ${freshLoad})`,
  ],
  [
    "cold start to first 200, existing data dir",
    `${coldMs.toFixed(0)} ms (median of ${restarts.map((ms) => ms.toFixed(0)).join(", ")}; load ${restartLoad})`,
  ],
  ["idle RSS after start (PGlite)", `${idleRssMb.toFixed(1)} MB`],
  [
    "idle RSS after start (PostgreSQL)",
    postgresRssMb === null ? "set BENCH_DATABASE_URL to measure" : `${postgresRssMb.toFixed(1)} MB`,
  ],
  [
    "landing initial JS (gzip)",
    `${landing.kb.toFixed(1)} KB in ${landing.files.length} files — ${landing.how}`,
  ],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);

#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (PGlite; PostgreSQL + Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set), fault tests (several built instances on a
// PostgreSQL and a Redis of their own) and browser tests in real Chromium. With
// TEST_SECOND_NODE (the path of another Node binary, e.g. Node 24 from the `node` package
// that .ci/run installs), unit and integration run once more on that Node: on PostgreSQL
// when it is set (then this Node runs them on PGlite only), else on PGlite.
// Half the fault tests and that second pass run in the background beside the browser tests,
// which mostly wait on pages (a core sat idle through them), the other half after the browser
// tests; each step's line gives its time and how busy the machine's CPU was meanwhile.
// Ends with one line: "N passed, N failed, N skipped".
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findFaultTools } from "../faults/support/find-fault-tools.mjs";
import { buildIfStale } from "./build.mjs";
import { findChromium } from "./find-chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** Every failed test by name, repeated at the end so a log's last lines say which. */
const failedTests = [];
/** Where the steps' logs and reports go: the machine's own temporary folder, kept after the run. */
const reportsDir = tmpdir();

/** Linux's tmpfs, as statfs names it. */
const TMPFS_MAGIC = 0x01021994;
/** The free room /dev/shm must have to take the tests' temporary files (decision 093). */
const RAM_TMPDIR_MIN_FREE = 8 * 1024 ** 3;

/**
 * The tests' temporary files (PGlite databases copied from a 42 MB template ~160 times a pass,
 * uploads' spools, the browser's profiles, the fault tests' PostgreSQL clusters) in memory,
 * where /dev/shm is a tmpfs with room: on ext4 each copy was written back to disk and
 * journalled, ~5 % of a pass's wall time (decision 093). A TMPDIR the caller set is kept.
 * Returns the folder to remove at the end.
 */
function useRamTmpdir() {
  if (process.env.TMPDIR) return undefined;
  try {
    const fs = statfsSync("/dev/shm");
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < RAM_TMPDIR_MIN_FREE) return undefined;
    const dir = mkdtempSync("/dev/shm/cohort-test-");
    // As /tmp: the fault tests' PostgreSQL runs as its own user and makes its files here.
    chmodSync(dir, 0o1777);
    process.env.TMPDIR = dir;
    console.log(`Temporary files of the tests: ${dir} (tmpfs), removed at the end.`);
    return dir;
  } catch {
    return undefined;
  }
}
const ramTmpdir = useRamTmpdir();

/** The steps' processes that are running now. */
const running = new Set();

/** A step's process, from the root, with the environment and these additions. */
function spawnStep(command, args, stdio, env) {
  const child = spawn(command, args, { cwd: root, stdio, env: { ...process.env, ...env } });
  running.add(child);
  child.once("close", () => running.delete(child));
  return child;
}

/** Resolves once a step's process has ended, sending it `signal` first. */
function stopStep(child, signal) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("close", () => resolve());
    child.kill(signal);
  });
}

// An interrupted run stops its steps (the signal reaches a step's process only from a
// terminal, which signals the whole group), so none goes on writing, orphaned; then it removes
// the tests' temporary files (tmpfs keeps them in memory until then) and lets the signal end
// it as it would have: the listener is gone once it ran.
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, async () => {
    await Promise.all([...running].map((child) => stopStep(child, signal)));
    if (ramTmpdir) rmSync(ramTmpdir, { recursive: true, force: true });
    process.kill(process.pid, signal);
  });

function banner(lines) {
  const bar = "!".repeat(78);
  console.log(`\n${bar}\n${lines.map((line) => `!! ${line}`).join("\n")}\n${bar}`);
}

/** A missing tool skips its tests loudly; under E2E_REQUIRED=1 that fails the run. */
function missingTool(what, lines) {
  banner(lines);
  if (process.env.E2E_REQUIRED === "1") {
    failures.push(`${what} (E2E_REQUIRED=1)`);
    totals.failed += 1;
  }
}

/** The machine's busy and total CPU ticks (all cores), from /proc/stat where there is one. */
function cpuTicks() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1);
    const ticks = fields.map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = ticks[3] + (ticks[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** "(N s, CPU busy P %)": how long a step took and how busy the whole machine was meanwhile. */
function took(started, ticks) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const now = cpuTicks();
  if (!ticks || !now || now.total === ticks.total) return `${seconds} s`;
  const busy = Math.round((100 * (now.busy - ticks.busy)) / (now.total - ticks.total));
  return `${seconds} s, CPU busy ${busy} %`;
}

/** Runs a command with its output live; resolves to whether it passed. */
function step(name, command, args, env = {}) {
  const started = Date.now();
  const ticks = cpuTicks();
  console.log(`\n▶ ${name}`);
  // Not spawnSync: a step in the background (backgroundStep) goes on meanwhile.
  const child = spawnStep(command, args, "inherit", env);
  return new Promise((resolve) => {
    child.on("error", () => resolve(false));
    child.on("close", (status) => {
      const ok = status === 0;
      console.log(`${ok ? "✔" : "✖"} ${name} (${took(started, ticks)})`);
      if (!ok) failures.push(name);
      resolve(ok);
    });
  });
}

/**
 * The same as step, in the background: the command's output goes to a file, printed whole
 * when it ends (two live outputs would interleave line by line), while the caller goes on.
 */
function backgroundStep(name, command, args, env = {}) {
  const started = Date.now();
  const ticks = cpuTicks();
  const log = path.join(mkdtempSync(path.join(reportsDir, "cohort-step-")), "output.log");
  const fd = openSync(log, "w");
  console.log(`\n▶ ${name} (in the background; its output follows when it ends)`);
  const child = spawnStep(command, args, ["ignore", fd, fd], env);
  closeSync(fd);
  return new Promise((resolve) => {
    child.on("error", () => resolve(false));
    child.on("close", (status) => {
      const ok = status === 0;
      console.log(`\n▶ ${name}: its output (it ran in the background)`);
      process.stdout.write(readFileSync(log, "utf8"));
      console.log(`${ok ? "✔" : "✖"} ${name} (${took(started, ticks)})`);
      if (!ok) failures.push(name);
      resolve(ok);
    });
  });
}

/** The step's slowest files, so a CI log shows where its time goes. */
function printSlowest(name, files, count = 8) {
  const timed = files
    .map((file) => ({ file: path.relative(root, file.name), ms: file.endTime - file.startTime }))
    .filter((entry) => Number.isFinite(entry.ms))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  if (timed.length === 0) return;
  console.log(`\nSlowest files of ${name}:`);
  for (const { file, ms } of timed)
    console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
}

/** vitest's arguments for some projects, writing its JSON report to a file of its own. */
function vitestCommand(projects, extra, node) {
  const report = path.join(mkdtempSync(path.join(reportsDir, "cohort-vitest-")), "report.json");
  const args = [
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...extra,
  ];
  // A second Node runs vitest's own entry, first on PATH so that what tests spawn uses it too.
  if (node === process.execPath) return { report, command: bin("vitest"), args, env: {} };
  return {
    report,
    command: node,
    args: [path.join(root, "node_modules/vitest/vitest.mjs"), ...args],
    env: { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` },
  };
}

async function vitest(name, projects, extra = [], node = process.execPath) {
  const { report, command, args, env } = vitestCommand(projects, extra, node);
  readReport(name, report, await step(name, command, args, env));
}

/** vitest in the background (backgroundStep); resolves when it has ended and been counted. */
async function vitestInBackground(name, projects, extra = [], node = process.execPath) {
  const { report, command, args, env } = vitestCommand(projects, extra, node);
  readReport(name, report, await backgroundStep(name, command, args, env));
}

/** Adds a vitest run's JSON report to the totals, with its slowest and its failed tests. */
function readReport(name, report, ok) {
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
    printSlowest(name, json.testResults);
    for (const file of json.testResults) {
      const relative = path.relative(root, file.name);
      for (const test of file.assertionResults) {
        if (test.status !== "failed") continue;
        const reason = String(test.failureMessages?.[0] ?? "")
          .split("\n")[0]
          .slice(0, 200);
        failedTests.push(`${name}: ${relative} › ${test.fullName}\n    ${reason}`);
      }
      // A file that failed outside its tests (a hook, an import) has no failed test to name.
      if (file.status === "failed" && !file.assertionResults.some((t) => t.status === "failed"))
        failedTests.push(
          `${name}: ${relative}\n    ${String(file.message ?? "")
            .split("\n")[0]
            .slice(0, 200)}`,
        );
    }
  } catch {
    if (!ok) totals.failed += 1;
  }
}

/** Typecheck and lint: in the background beside the unit and integration pass (they emit nothing). */
async function checks() {
  (await backgroundStep("typecheck", bin("tsc"), ["-p", "packages/contracts"])) &&
    (await backgroundStep("typecheck server", bin("tsc"), ["-p", "apps/server"])) &&
    (await backgroundStep("typecheck web", bin("tsc"), ["-p", "apps/web"])) &&
    (await backgroundStep("typecheck tools", bin("tsc"), ["-p", "tsconfig.tools.json"]));
  await backgroundStep("lint", bin("biome"), ["ci", "."]);
}

// The Firebase Auth emulator (firebase-tools, ~600 packages) is not in the project's own
// install: it has a package of its own, installed here the first time (decision 055).
const firebaseTools = path.join(root, "test-support/firebase-tools");
if (!existsSync(path.join(firebaseTools, "node_modules/firebase-tools/package.json"))) {
  const args = ["ci", "--prefix", firebaseTools, "--omit=optional", "--no-audit", "--no-fund"];
  console.log(`\n▶ install the Firebase emulator: npm ${args.join(" ")}`);
  const installed = spawnSync("npm", args, { cwd: root, stdio: "inherit" }).status === 0;
  if (!installed)
    missingTool("Firebase emulator tests (firebase-tools could not be installed)", [
      "THE FIREBASE EMULATOR TESTS WERE NOT RUN: firebase-tools could not be installed.",
      "Install it: npm ci --prefix test-support/firebase-tools --omit=optional",
    ]);
}

// run_code's Jupyter option is tested against Debian's Jupyter server (decision 062).
if (spawnSync("/usr/bin/python3", ["-c", "import jupyter_server, ipykernel"]).status !== 0) {
  missingTool("Jupyter tests (no python3-jupyter-server with python3-ipykernel)", [
    "THE JUPYTER TESTS WERE NOT RUN: no Jupyter server with ipykernel for /usr/bin/python3.",
    "Install it: apt-get install -y python3-jupyter-server python3-ipykernel",
  ]);
}

// With a second Node and PostgreSQL both given, the integration files run once on each
// database and each Node is one of them: this Node on PGlite, the second on PostgreSQL. Each
// pass is ~8 minutes on two cores; three of them (both databases here, PGlite again there)
// kept CI over its 30-minute goal without testing anything the two passes miss.
const secondNode = process.env.TEST_SECOND_NODE;
let secondVersion = "";
if (secondNode) {
  const version = spawnSync(secondNode, ["--version"], { encoding: "utf8" });
  if (version.status === 0) secondVersion = version.stdout.trim();
  else missingTool("the second Node", [`TEST_SECOND_NODE=${secondNode} does not run.`]);
}
const postgres = Boolean(process.env.TEST_DATABASE_URL);
if (!postgres) console.log("\nTEST_DATABASE_URL is not set: integration tests run on PGlite only.");
const splitAcrossNodes = postgres && secondVersion !== "";
// Two files at a time even on two cores (vitest's default is cores - 1): the integration
// files mostly wait on sockets, the PGlite thread and PostgreSQL, and each has its own
// database schema and Redis prefix. 1,916 tests in 450 s instead of about 800 s. Files share
// their worker's module graph (isolate: false in vitest.config.ts): 2,129 tests in 481 s
// instead of 745 s.
const checked = checks();
await vitest(
  "unit + integration",
  postgres && !splitAcrossNodes
    ? ["unit", "integration", "integration-postgres"]
    : ["unit", "integration"],
  ["--maxWorkers=2"],
);
await checked;
// The fault tests start their own PostgreSQL server and redis-server (never the shared ones),
// so they need the binaries, not the services; they run the built server.
const faultTools = findFaultTools();
const chromium = findChromium();
if (chromium || faultTools.ok) {
  console.log("\n▶ build for the fault and browser tests");
  await buildIfStale();
}

/**
 * The fault files split in two halves of about equal time (decision 093): the first, then the
 * second Node's pass, in the background while the browser tests run (below); the second half
 * after the browser tests, while that pass goes on. A browser file mostly waits on the page,
 * so the machine had a core idle through them; the lanes share nothing (own ports, own
 * databases, schemas and Redis prefixes), and the two halves never run at once. The browser
 * files that race a stream (e2e-alone) wait until both lanes are done.
 */
const FAULTS_FIRST = [
  "faults/crash-branches-approvals.test.ts",
  "faults/provider-faults.test.ts",
  "faults/cluster.test.ts",
];
const faultFiles = (first) =>
  readdirSync(path.join(root, "faults"))
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => `faults/${name}`)
    .filter((file) => FAULTS_FIRST.includes(file) === first);

async function faultTests(part, files) {
  if (faultTools.ok) {
    await vitestInBackground(
      `fault tests, part ${part} (several instances, PostgreSQL, Redis)`,
      ["faults"],
      files,
    );
  } else if (part === 1) {
    missingTool("fault tests (PostgreSQL or redis-server is missing)", [
      `THE FAULT TESTS WERE NOT RUN: missing ${faultTools.missing.join("; ")}.`,
      "Install them (Debian: apt-get install -y postgresql redis-server).",
    ]);
  }
}

const firstFaults = faultTests(1, faultFiles(true));
/** The second half of the fault files, once the first has ended. */
const secondFaults = async () => {
  await firstFaults;
  await faultTests(2, faultFiles(false));
};

async function secondLane() {
  await firstFaults;
  if (secondVersion) {
    await vitestInBackground(
      `unit + integration${splitAcrossNodes ? " on PostgreSQL" : ""} on Node ${secondVersion}`,
      ["unit", splitAcrossNodes ? "integration-postgres" : "integration"],
      ["--maxWorkers=2"],
      secondNode,
    );
  }
}
const lane = secondLane();

if (chromium) {
  // Two browser files at a time in the e2e project (vitest.config.ts)…
  await vitest("browser tests (Chromium)", ["e2e"], ["--maxWorkers=2"]);
  await secondFaults();
  await lane;
  // …and the ones that race a stream one by one, with nothing else running.
  await vitest("browser tests that race a stream (Chromium, one at a time)", ["e2e-alone"]);
} else {
  await secondFaults();
  await lane;
  missingTool("browser tests (no Chromium)", [
    "NO CHROMIUM FOUND: the browser tests were NOT run.",
    "Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.",
  ]);
}

if (failedTests.length > 0)
  console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
console.log(failures.length ? `\nFailed steps: ${failures.join(", ")}` : "\nAll steps passed.");
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (ramTmpdir) rmSync(ramTmpdir, { recursive: true, force: true });
process.exit(failures.length ? 1 : 0);

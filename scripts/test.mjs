#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (PGlite; PostgreSQL + Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set), fault tests (several built instances on a
// PostgreSQL and a Redis of their own) and browser tests in real Chromium. With
// TEST_SECOND_NODE (the path of another Node binary, e.g. Node 24 from the `node` package
// that .ci/run installs), unit and integration run once more on that Node: on PostgreSQL
// when it is set (then this Node runs them on PGlite only), else on PGlite.
// Ends with one line: "N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
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

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  console.log(`${ok ? "✔" : "✖"} ${name} (${seconds} s)`);
  if (!ok) failures.push(name);
  return ok;
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

function vitest(name, projects, extra = [], node = process.execPath) {
  const report = path.join(mkdtempSync(path.join(tmpdir(), "cohort-vitest-")), "report.json");
  const args = [
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...extra,
  ];
  // A second Node runs vitest's own entry, first on PATH so that what tests spawn uses it too.
  const ok =
    node === process.execPath
      ? step(name, bin("vitest"), args)
      : step(name, node, [path.join(root, "node_modules/vitest/vitest.mjs"), ...args], {
          PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}`,
        });
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

step("typecheck", bin("tsc"), ["-p", "packages/contracts"]) &&
  step("typecheck server", bin("tsc"), ["-p", "apps/server"]) &&
  step("typecheck web", bin("tsc"), ["-p", "apps/web"]) &&
  step("typecheck tools", bin("tsc"), ["-p", "tsconfig.tools.json"]);
step("lint", bin("biome"), ["ci", "."]);

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
vitest(
  "unit + integration",
  postgres && !splitAcrossNodes
    ? ["unit", "integration", "integration-postgres"]
    : ["unit", "integration"],
  ["--maxWorkers=2"],
);
if (secondVersion) {
  vitest(
    `unit + integration${splitAcrossNodes ? " on PostgreSQL" : ""} on Node ${secondVersion}`,
    ["unit", splitAcrossNodes ? "integration-postgres" : "integration"],
    ["--maxWorkers=2"],
    secondNode,
  );
}

// The fault tests start their own PostgreSQL server and redis-server (never the shared ones),
// so they need the binaries, not the services; their global setup builds the server.
const faultTools = findFaultTools();
if (faultTools.ok) {
  vitest("fault tests (several instances, PostgreSQL, Redis)", ["faults"]);
} else {
  missingTool("fault tests (PostgreSQL or redis-server is missing)", [
    `THE FAULT TESTS WERE NOT RUN: missing ${faultTools.missing.join("; ")}.`,
    "Install them (Debian: apt-get install -y postgresql redis-server).",
  ]);
}

const chromium = findChromium();
if (chromium) {
  console.log("\n▶ build for browser tests");
  await buildIfStale();
  // Two browser files at a time in the e2e project (vitest.config.ts); e2e-alone one by one.
  vitest("browser tests (Chromium)", ["e2e", "e2e-alone"], ["--maxWorkers=2"]);
} else {
  missingTool("browser tests (no Chromium)", [
    "NO CHROMIUM FOUND: the browser tests were NOT run.",
    "Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.",
  ]);
}

if (failedTests.length > 0)
  console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
console.log(failures.length ? `\nFailed steps: ${failures.join(", ")}` : "\nAll steps passed.");
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);

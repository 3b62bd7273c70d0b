#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, integration (PGlite; PostgreSQL + Redis when
// TEST_DATABASE_URL / TEST_REDIS_URL are set), fault tests (several built instances on a
// PostgreSQL and a Redis of their own) and browser tests in real Chromium.
// Ends with one line: "N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
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

function vitest(name, projects, extra = []) {
  const report = path.join(mkdtempSync(path.join(tmpdir(), "cohort-vitest-")), "report.json");
  const args = [
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...extra,
  ];
  const ok = step(name, bin("vitest"), args);
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
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

const projects = ["unit", "integration"];
if (process.env.TEST_DATABASE_URL) projects.push("integration-postgres");
else console.log("\nTEST_DATABASE_URL is not set: integration tests run on PGlite only.");
// Two files at a time even on two cores (vitest's default is cores - 1): the integration
// files mostly wait on sockets, the PGlite thread and PostgreSQL, and each has its own
// database schema and Redis prefix. 1,916 tests in 450 s instead of about 800 s. Files share
// their worker's module graph (isolate: false in vitest.config.ts): 2,129 tests in 481 s
// instead of 745 s.
vitest("unit + integration", projects, ["--maxWorkers=2"]);

// The fault tests start their own PostgreSQL server and redis-server (never the shared ones),
// so they need the binaries, not the services; their global setup builds the server.
const faultTools = findFaultTools();
if (faultTools.ok) {
  vitest("fault tests (several instances, PostgreSQL, Redis)", ["faults"]);
} else {
  const banner = "!".repeat(78);
  console.log(
    `\n${banner}\n!! THE FAULT TESTS WERE NOT RUN: missing ${faultTools.missing.join("; ")}.\n!! Install them (Debian: apt-get install -y postgresql redis-server).\n${banner}`,
  );
  if (process.env.E2E_REQUIRED === "1") {
    failures.push("fault tests (E2E_REQUIRED=1 but PostgreSQL or redis-server is missing)");
    totals.failed += 1;
  }
}

const chromium = findChromium();
if (chromium) {
  console.log("\n▶ build for browser tests");
  await buildIfStale();
  vitest("browser tests (Chromium)", ["e2e", "e2e-alone"]);
} else {
  const banner = "!".repeat(78);
  console.log(
    `\n${banner}\n!! NO CHROMIUM FOUND: the browser tests were NOT run.\n!! Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.\n${banner}`,
  );
  if (process.env.E2E_REQUIRED === "1") {
    failures.push("browser tests (E2E_REQUIRED=1 but no Chromium)");
    totals.failed += 1;
  }
}

if (failedTests.length > 0)
  console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
console.log(failures.length ? `\nFailed steps: ${failures.join(", ")}` : "\nAll steps passed.");
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);

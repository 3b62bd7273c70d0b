import { defineConfig } from "vitest/config";

const integrationFiles = ["apps/server/test/**/*.test.ts"];
/**
 * Integration files whose subject is the same on any database: the PostgreSQL pass leaves them
 * out. run_code's sandboxes store nothing (a child process and a Jupyter server; the embedded
 * sandbox's file is ~150 s of a worker, Pyodide starting per run). The malformed-input fuzzer
 * checks that every refused request changed no row: the refusal happens in the routes'
 * validation and transactions, which both databases (the same PostgreSQL engine) roll back
 * alike; it is the PostgreSQL pass's most CPU-hungry file after the slow-stream ones.
 */
const databaseIndependent = [
  "apps/server/test/code-sandbox.test.ts",
  "apps/server/test/code-jupyter.test.ts",
  "apps/server/test/security/malformed-bodies.test.ts",
];
const consoleGuard = "test-support/fail-on-console-error.ts";
/** Browser tests that run one at a time (see the e2e-alone project). */
const e2eAlone = [
  "e2e/chat.test.ts",
  "e2e/chat-actions.test.ts",
  "e2e/documents-in-runs.test.ts",
  "e2e/cochat.test.ts",
  "e2e/steering.test.ts",
];

/**
 * One runner, five projects: unit tests beside the code, integration tests through HTTP and
 * sockets (PGlite always; PostgreSQL + Redis too when TEST_DATABASE_URL / TEST_REDIS_URL
 * are set), browser tests in real Chromium against the built server, and fault tests
 * (faults/: several built instances on a PostgreSQL and a Redis of their own, broken on
 * purpose).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          // One module graph per worker, not per file: every file imports the whole app, and
          // re-importing it for each of ~200 files was ~360 s of a CI run (tests mock no modules).
          isolate: false,
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/server/src/**/*.test.ts",
            "apps/web/src/**/*.test.{ts,tsx}",
          ],
          environment: "node",
          setupFiles: [consoleGuard],
        },
      },
      {
        test: {
          name: "integration",
          // One module graph per worker, not per file: every file imports the whole app, and
          // re-importing it for each of ~200 files was ~360 s of a CI run (tests mock no modules).
          isolate: false,
          include: integrationFiles,
          environment: "node",
          setupFiles: [consoleGuard],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: { COHORT_TEST_DB: "pglite" },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: "integration-postgres",
                // One module graph per worker, not per file: every file imports the whole app, and
                // re-importing it for each of ~200 files was ~360 s of a CI run (tests mock no modules).
                isolate: false,
                include: integrationFiles,
                exclude: databaseIndependent,
                environment: "node",
                setupFiles: [consoleGuard],
                testTimeout: 30_000,
                hookTimeout: 60_000,
                env: { COHORT_TEST_DB: "postgres" },
              },
            },
          ]
        : []),
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          exclude: e2eAlone,
          environment: "node",
          setupFiles: [consoleGuard],
          globalSetup: ["e2e/support/global-setup.ts"],
          // Two files at a time (npm test passes --maxWorkers=2): 462 s instead of ~1,000 s
          // one at a time on this 2-core machine, since a browser file mostly waits. What made
          // two at a time flaky before is fixed at its root: the CSRF secret now comes with
          // the page's document (the first token requests raced), and a poll waits 10 s. A
          // file that changes what every account sees starts a server of its own
          // (e2e/support/own-server.ts); files that race a stream run in e2e-alone.
          fileParallelism: true,
          sequence: { groupOrder: 1 },
          // A poll waits for a screen to settle; vitest's 1 s default fails a starved browser.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Files that race a stream in real time (stop a lane mid-stream, screenshot a
          // streaming answer): alone, after the parallel ones, so a starved browser cannot
          // lose the race.
          name: "e2e-alone",
          include: e2eAlone,
          environment: "node",
          setupFiles: [consoleGuard],
          globalSetup: ["e2e/support/global-setup.ts"],
          fileParallelism: false,
          sequence: { groupOrder: 3 },
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "faults",
          include: ["faults/**/*.test.ts"],
          environment: "node",
          setupFiles: [consoleGuard],
          globalSetup: ["faults/support/global-setup.ts"],
          // Each file runs a PostgreSQL, a Redis and several server processes of its own:
          // one file at a time, after the other projects when all run together.
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

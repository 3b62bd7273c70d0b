import { defineConfig } from "vitest/config";

const integrationFiles = ["apps/server/test/**/*.test.ts"];
const consoleGuard = "test-support/fail-on-console-error.ts";

/**
 * One runner, four projects: unit tests beside the code, integration tests through HTTP and
 * sockets (PGlite always; PostgreSQL + Redis too when TEST_DATABASE_URL / TEST_REDIS_URL
 * are set), and browser tests in real Chromium against the built server.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
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
                include: integrationFiles,
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
          environment: "node",
          setupFiles: [consoleGuard],
          globalSetup: ["e2e/support/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

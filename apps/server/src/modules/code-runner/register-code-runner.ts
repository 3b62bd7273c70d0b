import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { CodeRunnerConfig } from "../../config";
import type { DocumentStore } from "../documents/document-store";
import { codeFileRoutes, keepCodeFiles } from "./code-files";
import { CodeRunner } from "./code-runner";
import { codeToolProvider } from "./run-code-tool";

declare module "fastify" {
  interface FastifyInstance {
    /** run_code's runner (modules/code-runner, decision 062): the tool and the Critic's checks. */
    codeRunner: CodeRunner;
  }
}

/** Creates the app's code runner and offers run_code; its waiting sandboxes end with the app. */
export function registerCodeRunner(
  app: FastifyInstance,
  config: CodeRunnerConfig,
  fileStore?: DocumentStore,
): CodeRunner {
  const runner = new CodeRunner(config);
  app.decorate("codeRunner", runner);
  // run_code for the runs' lanes (the registry: modules/tools, decision 058); the files it
  // writes are kept for download from the lane (decision 068).
  const store = fileStore;
  app.tools.addProvider(
    codeToolProvider(
      runner,
      config,
      store
        ? (owner, files) => keepCodeFiles({ db: app.db, store, log: app.log }, owner, files)
        : undefined,
    ),
  );
  if (store) void app.register(codeFileRoutes, { store });
  app.addHook("onClose", async () => runner.close());
  return runner;
}

/**
 * The Critic's checks (decision 062) through the runner: each in a scratch folder of its own
 * that is removed after, so checks never see or leave the run's own files.
 */
export function codeCheckPort(runner: CodeRunner) {
  return {
    async run(
      job: { language: "python" | "javascript" | "typescript"; code: string; runTests: true },
      scope: { runId: string; stepId: string },
      signal: AbortSignal,
    ) {
      const dir = await mkdtemp(path.join(tmpdir(), "cohort-checks-"));
      try {
        const r = await runner.run(
          { ...job, files: [] },
          { dir, folder: `${scope.runId}-checks-${scope.stepId}` },
          signal,
        );
        return { checks: r.checks, stdout: r.stdout, stderr: r.stderr, error: r.error };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

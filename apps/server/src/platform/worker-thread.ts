import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts a worker thread from the built server or from the TypeScript sources: the built
 * server has `built` beside its module (scripts/build.mjs); from sources `source` is loaded
 * with tsx's loader registered in the thread first. `from` is the caller's import.meta.url.
 */
export function startWorkerThread(
  from: string,
  files: { source: string; built: string },
  options: WorkerOptions,
): Worker {
  const fromSource = from.endsWith(".ts");
  const entry = new URL(fromSource ? files.source : files.built, from);
  if (!fromSource) return new Worker(entry, options);
  // The CommonJS build of tsx's API cannot register its ESM hooks; its ESM twin sits beside it.
  const tsx = createRequire(from)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs");
  const boot = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then(({ register }) => {
    register();
    return import(${JSON.stringify(entry.href)});
  });`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * The `finish` of a worker thread's one job: the first outcome (an answer, an error, the exit,
 * a limit, a stop) wins; `cleanup` clears the job's own timers and listeners, the thread is
 * terminated, then the outcome runs. Later outcomes are ignored.
 */
export function finishOnce(worker: Worker, cleanup: () => void): (outcome: () => void) => void {
  let settled = false;
  return (outcome) => {
    if (settled) return;
    settled = true;
    cleanup();
    void worker.terminate();
    outcome();
  };
}

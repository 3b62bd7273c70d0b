import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
  const bundled = bundledSource(from, entry);
  if (bundled) return new Worker(bundled, options);
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

/** Each thread's sources bundled once per process: the file's URL, by the entry's URL. */
const bundles = new Map<string, URL | null>();

/**
 * From the TypeScript sources (tests, `npm run dev`), a thread's own modules bundled into one
 * JavaScript file, as scripts/build.mjs bundles them, with packages left to Node. Registering
 * tsx's loader in every new thread instead cost ~1 s of CPU per thread (its hooks' thread and
 * esbuild's service start again each time), and the tests open hundreds of embedded databases,
 * each on a thread of its own. The bundle is written under apps/server/node_modules/.cache,
 * so packages resolve from it as from the sources. Null when esbuild (a development
 * dependency) or that directory is not available: tsx's loader is used then.
 */
function bundledSource(from: string, entry: URL): URL | null {
  const known = bundles.get(entry.href);
  if (known !== undefined) return known;
  let bundled: URL | null = null;
  try {
    const require = createRequire(from);
    const esbuild = require("esbuild") as typeof import("esbuild");
    const serverRoot = path.dirname(require.resolve("../../package.json"));
    const result = esbuild.buildSync({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      sourcemap: "inline",
      logLevel: "silent",
      banner: {
        js: "import { createRequire as __cohortRequire } from 'node:module'; const require = __cohortRequire(import.meta.url);",
      },
    });
    const code = result.outputFiles[0]?.text;
    if (code !== undefined) {
      const dir = path.join(serverRoot, "node_modules/.cache/cohort-threads");
      const name = `${path.basename(entry.pathname, ".ts")}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
      const file = path.join(dir, name);
      if (!existsSync(file)) {
        mkdirSync(dir, { recursive: true });
        // Written whole under a temporary name, then renamed: another process may read it.
        const partial = `${file}.${process.pid}.tmp`;
        writeFileSync(partial, code);
        renameSync(partial, file);
      }
      bundled = pathToFileURL(file);
    }
  } catch {
    bundled = null;
  }
  bundles.set(entry.href, bundled);
  return bundled;
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

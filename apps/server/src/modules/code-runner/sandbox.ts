import { type ChildProcess, fork } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PYTHON_CHECKS } from "./python-checks";
import { stripTypes } from "./strip-types";

/**
 * The embedded sandbox (decision 062): Pyodide for Python, QuickJS for JavaScript and
 * TypeScript, each run in a child process of its own (sandbox-child.mjs) under Node's
 * permission model, with an empty environment, read access only to the engines' packages,
 * no child processes, no workers and no network. The parent enforces the time limit (kill)
 * and the output cap; the child caps the engines' memory.
 */

export type SandboxLanguage = "python" | "javascript" | "typescript";

export interface SandboxFile {
  name: string;
  content: Uint8Array;
}

export interface SandboxJob {
  language: SandboxLanguage;
  code: string;
  /** Files of the run's scratch folder, visible to the code under their names. */
  files: SandboxFile[];
  /** After the code, run its test_* functions (and unittest cases) and count them. */
  runTests: boolean;
}

export interface SandboxChecks {
  ran: number;
  passed: number;
  failed: number;
  failures: string[];
}

export type SandboxOutcome =
  | "completed" // exit status 0
  | "failed" // the code raised or exited non-zero
  | "time_limit"
  | "memory_limit"
  | "output_limit"
  | "stopped" // the caller aborted
  | "crashed"; // the engine itself failed

export interface SandboxResult {
  outcome: SandboxOutcome;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Execution time, from handing the code over to its result (start-up excluded). */
  durationMs: number;
  /** Start-up time of the sandbox the run used (0 when a warm one was waiting). */
  startMs: number;
  checks: SandboxChecks | null;
  /** Files created or changed by the run. */
  files: SandboxFile[];
  /** A sentence for the person and the model when the run did not complete. */
  error: string | null;
}

export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  outputBytes: number;
}

type Engine = "python" | "javascript";

interface ChildMessage {
  type: "ready" | "output" | "limit" | "done" | "failed";
  stream?: "stdout" | "stderr";
  text?: string;
  limit?: "output" | "memory" | "crash";
  message?: string;
  status?: number;
  checks?: SandboxChecks | null;
  files?: SandboxFile[];
  memoryRefused?: boolean;
}

interface Started {
  child: ChildProcess;
  ready: Promise<void>;
  startedAt: number;
  readyAt: number | null;
  /** Messages that arrive once a run owns the child. */
  listener: ((m: ChildMessage) => void) | null;
  exited: boolean;
}

const here = import.meta.url;

/** A sandbox that has not loaded its engine by then is given up (a wedged start). */
const START_LIMIT_MS = 180_000;

/** A package's folder, from its entry (not every package exports its package.json). */
function packageDir(require: NodeRequire, name: string): string {
  const entry = require.resolve(name);
  const marker = `${path.sep}node_modules${path.sep}${name.split("/").join(path.sep)}${path.sep}`;
  const at = entry.lastIndexOf(marker);
  if (at < 0) throw new Error(`${name} is not installed as a package`);
  return entry.slice(0, at + marker.length - 1);
}

/** The child script: beside this file from sources, beside the bundle when built. */
function childScript(): string {
  const fromSource = here.endsWith(".ts");
  return fileURLToPath(
    new URL(fromSource ? "./sandbox-child.mjs" : "./code-sandbox-child.js", here),
  );
}

function engineFiles(engine: Engine): { entry: string; readable: string[] } {
  const require = createRequire(here);
  if (engine === "python") {
    const dir = packageDir(require, "pyodide");
    return { entry: path.join(dir, "pyodide.mjs"), readable: [dir] };
  }
  const dir = packageDir(require, "quickjs-emscripten");
  const fromEngine = createRequire(path.join(dir, "package.json"));
  const core = packageDir(fromEngine, "quickjs-emscripten-core");
  const variant = packageDir(fromEngine, "@jitl/quickjs-wasmfile-release-sync");
  const ffi = packageDir(createRequire(path.join(core, "package.json")), "@jitl/quickjs-ffi-types");
  return {
    entry: path.join(dir, "dist", "index.mjs"),
    readable: [dir, core, variant, ffi, path.dirname(variant)],
  };
}

/** `--permission` from Node 22.13/23.5 on; `--experimental-permission` before. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has("--permission")
    ? "--permission"
    : "--experimental-permission";
}

export class CodeSandbox {
  private readonly warm = new Map<Engine, Started>();
  private closed = false;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly options: { warm: boolean },
  ) {}

  private start(engine: Engine): Started {
    const script = childScript();
    const files = engineFiles(engine);
    const child = fork(
      script,
      [
        engine,
        pathToFileURL(files.entry).href,
        String(this.limits.memoryBytes),
        String(this.limits.outputBytes),
        PYTHON_CHECKS,
      ],
      {
        env: {},
        execArgv: [
          permissionFlag(),
          `--allow-fs-read=${script}`,
          ...files.readable.map((dir) => `--allow-fs-read=${dir}`),
          // The JavaScript heap beside the engine's wasm memory (which the child caps).
          `--max-old-space-size=${Math.max(64, Math.ceil(this.limits.memoryBytes / 1024 / 1024))}`,
          "--disable-warning=ExperimentalWarning",
        ],
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      },
    );
    const started: Started = {
      child,
      startedAt: performance.now(),
      readyAt: null,
      listener: null,
      exited: false,
      ready: Promise.resolve(),
    };
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    started.ready = new Promise<void>((resolve, reject) => {
      child.on("message", (m: ChildMessage) => {
        if (m.type === "ready") {
          started.readyAt = performance.now();
          resolve();
        } else if (m.type === "failed" && started.readyAt === null) {
          reject(new Error(`The ${engine} sandbox did not start: ${m.message ?? "unknown"}`));
        } else started.listener?.(m);
      });
      child.on("exit", (code, signal) => {
        started.exited = true;
        if (started.readyAt === null) {
          reject(
            new Error(
              `The ${engine} sandbox did not start (exit ${code ?? signal}): ${stderr.trim().slice(0, 500)}`,
            ),
          );
        }
      });
    });
    // A waiting sandbox does not keep the server's process alive.
    started.ready.catch(() => {});
    child.unref();
    child.channel?.unref();
    return started;
  }

  /** Starts the waiting sandboxes now rather than at the first run. */
  prewarm(languages: SandboxLanguage[] = ["python", "javascript"]): void {
    if (!this.options.warm || this.closed) return;
    for (const language of languages) {
      const engine: Engine = language === "python" ? "python" : "javascript";
      if (!this.warm.has(engine)) this.warm.set(engine, this.start(engine));
    }
  }

  /** Resolves when the waiting sandbox for `language` has started (benchmarks, tests). */
  async whenWarm(language: SandboxLanguage): Promise<void> {
    const started = this.warm.get(language === "python" ? "python" : "javascript");
    await started?.ready;
  }

  private take(engine: Engine): { started: Started; warm: boolean } {
    const waiting = this.warm.get(engine);
    this.warm.delete(engine);
    const started = waiting && !waiting.exited ? waiting : this.start(engine);
    return { started, warm: started === waiting && started.readyAt !== null };
  }

  /** The next sandbox starts once a run is over, not while it runs (the CPU is the run's). */
  private refill(engine: Engine): void {
    if (this.options.warm && !this.closed && !this.warm.has(engine)) {
      this.warm.set(engine, this.start(engine));
    }
  }

  async run(job: SandboxJob, signal?: AbortSignal): Promise<SandboxResult> {
    let code = job.code;
    if (job.language === "typescript") {
      const stripped = stripTypes(code);
      if (!stripped.ok) return failedBeforeRun(stripped.error);
      code = stripped.code;
    }
    const engine: Engine = job.language === "python" ? "python" : "javascript";
    const { started, warm } = this.take(engine);
    const { child } = started;
    child.ref();
    child.channel?.ref();
    let startTimer: NodeJS.Timeout | undefined;
    const startLimit = new Promise<void>((_, reject) => {
      startTimer = setTimeout(
        () =>
          reject(
            new Error(`The ${engine} sandbox did not start within ${START_LIMIT_MS / 1000} s.`),
          ),
        START_LIMIT_MS,
      );
    });
    try {
      await raceAbort(Promise.race([started.ready, startLimit]), signal);
    } catch (e) {
      child.kill("SIGKILL");
      this.refill(engine);
      if (signal?.aborted) return failedBeforeRun("The run was stopped.", "stopped");
      return failedBeforeRun(e instanceof Error ? e.message : String(e), "crashed");
    } finally {
      clearTimeout(startTimer);
    }
    const startMs = warm
      ? 0
      : Math.round((started.readyAt ?? started.startedAt) - started.startedAt);
    const filename =
      job.language === "python" ? "main.py" : job.language === "typescript" ? "main.ts" : "main.js";
    return new Promise<SandboxResult>((resolve) => {
      const sentAt = performance.now();
      let stdout = "";
      let stderr = "";
      let outputBytes = 0;
      let settled = false;
      const finish = (r: Omit<SandboxResult, "stdout" | "stderr" | "durationMs" | "startMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (!started.exited) child.kill("SIGKILL");
        this.refill(engine);
        resolve({
          ...r,
          stdout,
          stderr,
          durationMs: Math.round(performance.now() - sentAt),
          startMs,
        });
      };
      const stop = (outcome: SandboxOutcome, error: string) =>
        finish({ outcome, exitCode: null, checks: null, files: [], error });
      const timer = setTimeout(
        () =>
          stop(
            "time_limit",
            `Stopped after ${formatSeconds(this.limits.timeoutMs)}: the time limit of a run.`,
          ),
        this.limits.timeoutMs,
      );
      const onAbort = () => stop("stopped", "The run was stopped.");
      signal?.addEventListener("abort", onAbort, { once: true });
      started.listener = (m) => {
        if (m.type === "output" && m.text) {
          outputBytes += Buffer.byteLength(m.text);
          if (m.stream === "stderr") stderr += m.text;
          else stdout += m.text;
          if (outputBytes > this.limits.outputBytes) {
            stop("output_limit", outputLimitText(this.limits.outputBytes));
          }
        } else if (m.type === "limit") {
          if (m.limit === "output") stop("output_limit", outputLimitText(this.limits.outputBytes));
          else if (m.limit === "memory")
            stop("memory_limit", memoryLimitText(this.limits.memoryBytes));
          else stop("crashed", `The sandbox failed: ${m.message ?? "unknown error"}`);
        } else if (m.type === "done") {
          const memory = m.memoryRefused === true;
          const exitCode = m.status ?? 1;
          finish({
            outcome: memory ? "memory_limit" : exitCode === 0 ? "completed" : "failed",
            exitCode,
            checks: m.checks ?? null,
            files: (m.files ?? []).map((f) => ({
              name: f.name,
              content: new Uint8Array(f.content),
            })),
            error: memory
              ? memoryLimitText(this.limits.memoryBytes)
              : exitCode === 0
                ? null
                : `The code exited with status ${exitCode}.`,
          });
        }
      };
      child.on("exit", (exitCode, sig) => {
        if (settled) return;
        // Out of memory in V8 itself ends the process with an abort.
        if (sig === "SIGABRT" || sig === "SIGKILL" || exitCode === 134) {
          stop("memory_limit", memoryLimitText(this.limits.memoryBytes));
        } else stop("crashed", `The sandbox ended unexpectedly (exit ${exitCode ?? sig}).`);
      });
      child.send({
        code,
        filename,
        files: job.files,
        runTests: job.runTests,
        // QuickJS's own interrupt is a backstop behind the kill above.
        timeoutMs: this.limits.timeoutMs + 2000,
      });
    });
  }

  close(): void {
    this.closed = true;
    for (const started of this.warm.values()) started.child.kill("SIGKILL");
    this.warm.clear();
  }
}

function failedBeforeRun(error: string, outcome: SandboxOutcome = "failed"): SandboxResult {
  return {
    outcome,
    exitCode: null,
    stdout: "",
    stderr: outcome === "failed" ? `${error}\n` : "",
    durationMs: 0,
    startMs: 0,
    checks: null,
    files: [],
    error,
  };
}

async function raceAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) throw new Error("aborted");
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

function memoryLimitText(bytes: number): string {
  return `Stopped: the run reached its memory limit of ${Math.round(bytes / 1024 / 1024)} MB.`;
}

function outputLimitText(bytes: number): string {
  const kb = bytes / 1024;
  const size = kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${Math.round(kb)} KB`;
  return `Stopped: the run printed more than ${size} of output.`;
}

// Shared by the benchmarks: start the built server as `npm start` runs it, and measure it.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns the server and resolves once GET /api/health answers 200, with the time it took. */
export async function startServer({ dataDir, env = {}, entry = "apps/server/dist/main.js" } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [path.resolve(root, entry)], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir ?? mkdtempSync(path.join(tmpdir(), "cohort-bench-")),
      LOG_LEVEL: "info",
      // Benchmarks measure Cohort, not a model server that happens to run on this machine.
      LOCAL_MODEL_DISCOVERY: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error("the server exited during start-up");
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  const startMs = performance.now() - started;
  return {
    url,
    child,
    startMs,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export function machine() {
  return `${process.platform} ${process.arch}, Node ${process.version}`;
}

/** CPU time the server process has used so far, in ms (Linux /proc; 100 ticks a second). */
export function serverCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The plan the benches' fake provider answers with: a strategist first, a coder and a
 * designer side by side, a critic after both (6 model calls a run, 5 deep).
 */
export const BENCH_PLAN = {
  rationale: "Plan first, then code and design side by side, then review.",
  steps: [
    { id: "s1", role: "strategist", task: "Plan it", dependsOn: [] },
    { id: "s2", role: "coder", task: "Code it", dependsOn: ["s1"] },
    { id: "s3", role: "designer", task: "Design it", dependsOn: ["s1"] },
    { id: "s4", role: "critic", task: "Review it", dependsOn: ["s2", "s3"] },
  ],
};

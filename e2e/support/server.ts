import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export { freePort } from "../../test-support/free-port";

const root = path.resolve(import.meta.dirname, "../..");

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  // Generous: a loaded machine (CI beside other work) can take far longer than the usual 2 s.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited early:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`The server did not become healthy in 90 s:\n${output()}`);
}

/**
 * Starts the real built server, as `npm start` runs it, on `port` with a fresh data dir and
 * the suite's settings plus `env` (the sign-in providers a test file needs).
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  publicUrl = `http://127.0.0.1:${port}`,
): Promise<ChildProcess> {
  let log = "";
  const server = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: publicUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-e2e-")),
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "100000",
      SIGNUP_LIMIT_PER_HOUR: "100000",
      // Every browser of the suite is one IP: telemetry's per-IP limits would throttle them.
      TELEMETRY_LOGS_PER_MINUTE: "100000",
      TELEMETRY_ANALYTICS_PER_MINUTE: "100000",
      TELEMETRY_ANONYMOUS_BYTES_PER_DAY: "10000000000",
      // Runs finish in seconds, yet slowly enough for a browser to stop or reload one
      // mid-stream (e2e/chat.test.ts).
      SIMULATOR_TOKENS_PER_SECOND: "120",
      // A model server on this machine's usual ports must not answer the suite's runs.
      LOCAL_MODEL_DISCOVERY: "0",
      // The suite's screens show charges on simulated runs (decision 053: free by default);
      // a test of the free default passes SIMULATOR_CHARGES: "0".
      SIMULATOR_CHARGES: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  await waitForHealth(`http://127.0.0.1:${port}`, server, () => log);
  return server;
}

export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    adminEmail: string;
    adminPassword: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
export const ADMIN_EMAIL = "admin@cohort.test";
export const ADMIN_PASSWORD = "e2e-Admin-passphrase-42";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited early:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not become healthy in 30 s:\n${output()}`);
}

let server: ChildProcess | undefined;

/** Starts the real built server, as `npm start` runs it, on a free port and a fresh data dir. */
export async function setup(project: TestProject) {
  await buildIfStale();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let log = "";
  server = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-e2e-")),
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "100000",
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  await waitForHealth(baseURL, server, () => log);
  project.provide("baseURL", baseURL);
  project.provide("adminEmail", ADMIN_EMAIL);
  project.provide("adminPassword", ADMIN_PASSWORD);
}

export async function teardown() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

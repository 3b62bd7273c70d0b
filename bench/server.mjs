// Shared by the benchmarks: start the built server as `npm start` runs it, and measure it.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { apiCall } from "../test-support/api-client.mjs";

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

/** The operator's account the benchmarks give the server (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const BENCH_ADMIN = {
  email: "bench-admin@example.com",
  password: "bench admin passphrase 1",
};
/** The environment that makes BENCH_ADMIN the server's operator. */
export const BENCH_ADMIN_ENV = {
  ADMIN_EMAIL: BENCH_ADMIN.email,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
};

/**
 * The fake provider (bench/fake-provider.mjs) in its own process with these settings; its
 * first line is its URL. It never outlives the benchmark, even when that fails.
 */
export async function startFakeProvider(settings) {
  const child = spawn(
    process.execPath,
    [path.join(root, "bench/fake-provider.mjs"), JSON.stringify(settings)],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", () => reject(new Error("the fake provider exited")));
  });
  process.once("exit", () => child.kill("SIGTERM"));
  return { url, pid: child.pid, stop: () => child.kill("SIGTERM") };
}

/**
 * A new user as a person becomes one: signs up (a browser call, with the CSRF pair) and opens
 * the emailed confirmation link (read from the operator's outbox; the welcome credits come
 * with a confirmed address). The server must run with BENCH_ADMIN_ENV. Returns the token.
 */
export async function signUpVerified(base) {
  const { agreement } = await apiCall(base, "GET", "/api/agreements/current");
  const email = `bench-${Date.now()}-${Math.random().toString(16).slice(2)}@example.com`;
  const { token } = await apiCall(base, "POST", "/api/user-auth/signup", {
    anonymousMutation: true,
    body: {
      email,
      password: "benchmark passphrase 1",
      firstName: "Bench",
      lastName: "Mark",
      agreementId: agreement.id,
    },
  });
  const admin = await apiCall(base, "POST", "/api/admin/login", {
    body: BENCH_ADMIN,
    headers: { authorization: "Bearer bench" },
  });
  for (let tries = 0; tries < 50; tries++) {
    const { messages } = await apiCall(base, "GET", "/api/admin/outbox", { bearer: admin.token });
    const link = messages
      .find((m) => m.to === email)
      ?.text.match(/\/verify-email\?token=([\w-]+)/)?.[1];
    if (link) {
      await apiCall(base, "POST", "/api/user-auth/verify-email", {
        bearer: admin.token,
        body: { token: link },
      });
      return token;
    }
    await sleep(100);
  }
  throw new Error(`no verification email reached ${email}`);
}

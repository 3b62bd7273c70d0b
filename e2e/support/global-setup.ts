import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build.mjs";
import { startOidcStandIn } from "../../test-support/oidc-provider";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    adminEmail: string;
    adminPassword: string;
    /** The account the local Google stand-in signs in as. */
    googleEmail: string;
    googleName: string;
  }
}

const root = path.resolve(import.meta.dirname, "../..");
export const ADMIN_EMAIL = "admin@cohort.test";
export const ADMIN_PASSWORD = "e2e-Admin-passphrase-42";

const GOOGLE_CLIENT_ID = "cohort-e2e";
const GOOGLE_CLIENT_SECRET = "cohort-e2e-client-secret-for-tests-only";
const GOOGLE_ACCOUNT = {
  sub: "google-e2e-0001",
  email: "grace.hopper@google.test",
  email_verified: true,
  given_name: "Grace",
  family_name: "Hopper",
  name: "Grace Hopper",
  picture: "https://example.com/grace.png",
} as const;

/**
 * A real OpenID Connect provider (oidc-provider) standing in for Google: the server's
 * GOOGLE_ISSUER_URL points here, so the browser walks the whole code + PKCE flow. Its login
 * page signs in as GOOGLE_ACCOUNT at once, as Google does for a user already signed in there.
 */
function startGoogleStandIn(callbackUrl: string) {
  return startOidcStandIn({
    clientId: GOOGLE_CLIENT_ID,
    clientSecret: GOOGLE_CLIENT_SECRET,
    redirectUri: callbackUrl,
    findClaims: (sub) => (sub === GOOGLE_ACCOUNT.sub ? { ...GOOGLE_ACCOUNT } : undefined),
    loginAs: () => GOOGLE_ACCOUNT.sub,
  });
}

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
    await sleep(100);
  }
  throw new Error(`The server did not become healthy in 30 s:\n${output()}`);
}

let server: ChildProcess | undefined;
let googleStandIn: { close(): Promise<void> } | undefined;

/** Starts the real built server, as `npm start` runs it, on a free port and a fresh data dir. */
export async function setup(project: TestProject) {
  await buildIfStale();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const google = await startGoogleStandIn(`${baseURL}/api/auth/google/callback`);
  googleStandIn = google;
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
      SIGNUP_LIMIT_PER_HOUR: "100000",
      // Every browser of the suite is one IP: telemetry's per-IP limits would throttle them.
      TELEMETRY_LOGS_PER_MINUTE: "100000",
      TELEMETRY_ANALYTICS_PER_MINUTE: "100000",
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      GOOGLE_CLIENT_ID,
      GOOGLE_CLIENT_SECRET,
      GOOGLE_ISSUER_URL: google.issuer,
      // Runs finish in seconds, yet slowly enough for a browser to stop or reload one
      // mid-stream (e2e/chat.test.ts).
      SIMULATOR_TOKENS_PER_SECOND: "120",
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
  project.provide("googleEmail", GOOGLE_ACCOUNT.email);
  project.provide("googleName", GOOGLE_ACCOUNT.name);
}

export async function teardown() {
  if (googleStandIn) {
    await googleStandIn.close();
  }
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

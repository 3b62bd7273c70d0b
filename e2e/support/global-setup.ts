import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration } from "oidc-provider";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build.mjs";

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
async function startGoogleStandIn(
  callbackUrl: string,
): Promise<{ issuer: string; server: Server }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const configuration: Configuration = {
    clients: [
      {
        client_id: GOOGLE_CLIENT_ID,
        client_secret: GOOGLE_CLIENT_SECRET,
        redirect_uris: [callbackUrl],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "e2e", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["cohort-e2e-oidc-cookie-key"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
    },
    findAccount: async (_ctx, sub) =>
      sub === GOOGLE_ACCOUNT.sub
        ? { accountId: sub, claims: async () => ({ ...GOOGLE_ACCOUNT }) }
        : undefined,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: async (ctx) => {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientId || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    pkce: { required: () => true },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();
  const server = createHttpServer((req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: GOOGLE_ACCOUNT.sub } },
          { mergeWithLastSubmission: false },
        )
        .catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { issuer, server };
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
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not become healthy in 30 s:\n${output()}`);
}

let server: ChildProcess | undefined;
let googleStandIn: Server | undefined;

/** Starts the real built server, as `npm start` runs it, on a free port and a fresh data dir. */
export async function setup(project: TestProject) {
  await buildIfStale();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const google = await startGoogleStandIn(`${baseURL}/api/auth/google/callback`);
  googleStandIn = google.server;
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
    googleStandIn.closeAllConnections();
    await new Promise<void>((resolve) => googleStandIn?.close(() => resolve()));
  }
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

import type { ChildProcess } from "node:child_process";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "../../scripts/build.mjs";
import { startOidcStandIn } from "../../test-support/oidc-provider";
import { freePort, startServer, stopServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    adminEmail: string;
    adminPassword: string;
    /** The account the local Google stand-in signs in as. */
    googleEmail: string;
    googleName: string;
    /** The shared server's simulator pace, which a file's own server starts with too. */
    simulatorPace: string;
  }
}

/** The simulator's pace on the shared server of the e2e project (tokens per second). */
const E2E_FAST_PACE = process.env.E2E_SIMULATOR_PACE ?? "1000";

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
} as const;

/**
 * A real OpenID Connect provider (oidc-provider) standing in for Google: the server's
 * GOOGLE_ISSUER_URL points here, so the browser walks the whole code + PKCE flow. Its login
 * page signs in as GOOGLE_ACCOUNT at once, as Google does for a user already signed in there.
 */
function startGoogleStandIn(baseURL: string) {
  // The photo is served by the app itself: the shell shows it, and this machine is offline.
  const account = { ...GOOGLE_ACCOUNT, picture: `${baseURL}/favicon.svg` };
  return startOidcStandIn({
    clientId: GOOGLE_CLIENT_ID,
    clientSecret: GOOGLE_CLIENT_SECRET,
    redirectUri: `${baseURL}/api/auth/google/callback`,
    findClaims: (sub) => (sub === account.sub ? { ...account } : undefined),
    loginAs: () => GOOGLE_ACCOUNT.sub,
  });
}

let server: ChildProcess | undefined;
let googleStandIn: { close(): Promise<void> } | undefined;

/** Starts the real built server, as `npm start` runs it, on a free port and a fresh data dir. */
export async function setup(project: TestProject) {
  await buildIfStale();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const google = await startGoogleStandIn(baseURL);
  googleStandIn = google;
  // The e2e-alone files race streams in real time (stop a lane mid-stream, reload mid-run):
  // their server streams at the suite's pace. The others wait for runs to end, and a run
  // there takes a fraction of the time (a file that needs a slow lane starts its own server).
  const simulatorPace = project.name === "e2e-alone" ? "120" : E2E_FAST_PACE;
  server = await startServer(port, {
    SIMULATOR_TOKENS_PER_SECOND: simulatorPace,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET,
    GOOGLE_ISSUER_URL: google.issuer,
  });
  project.provide("baseURL", baseURL);
  project.provide("adminEmail", ADMIN_EMAIL);
  project.provide("adminPassword", ADMIN_PASSWORD);
  project.provide("googleEmail", GOOGLE_ACCOUNT.email);
  project.provide("googleName", GOOGLE_ACCOUNT.name);
  project.provide("simulatorPace", simulatorPace);
}

export async function teardown() {
  if (googleStandIn) {
    await googleStandIn.close();
  }
  if (server) await stopServer(server);
}

import { existsSync } from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** The project id of every test: a `demo-*` project needs no credentials and no network. */
export const EMULATOR_PROJECT_ID = "demo-cohort";

export interface IdpAccount {
  /** Provider id as Firebase names it: google.com, github.com, facebook.com, twitter.com. */
  providerId: string;
  /** The account's id at that provider (Google's `sub`, GitHub's user id). */
  rawId: string;
  email?: string;
  emailVerified?: boolean;
  displayName?: string;
  photoUrl?: string;
}

export interface SignedInAtEmulator {
  idToken: string;
  localId: string;
}

export interface FirebaseAuthEmulator {
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  port: number;
  url: string;
  projectId: string;
  /** Signs in with a provider through the emulator's REST API (what the popup ends with). */
  signInWithIdp(account: IdpAccount): Promise<SignedInAtEmulator>;
  close(): Promise<void>;
}

/**
 * firebase-tools is not one of the project's own dependencies (it was a third of the lock and
 * a native build, for two test files): it has a package of its own here, which
 * scripts/test.mjs installs with `npm ci --prefix test-support/firebase-tools` (decision 055).
 */
const FIREBASE_TOOLS_DIR = path.join(import.meta.dirname, "firebase-tools");

/**
 * Whether the emulator can start. When it cannot, says so loudly, and the caller skips its
 * tests; scripts/test.mjs makes that a failure under E2E_REQUIRED=1.
 */
export function firebaseToolsInstalled(): boolean {
  if (existsSync(path.join(FIREBASE_TOOLS_DIR, "node_modules/firebase-tools/package.json")))
    return true;
  const banner = "!".repeat(78);
  console.warn(
    `\n${banner}\n!! THE FIREBASE EMULATOR TESTS WERE NOT RUN: firebase-tools is not installed.\n!! Install it: npm ci --prefix test-support/firebase-tools --omit=optional\n${banner}`,
  );
  return false;
}

interface EmulatorServerModule {
  createApp(projectId: string): Promise<{ listen(port: number, host: string): Server }>;
}

/**
 * The Firebase Authentication emulator of firebase-tools, the same code `firebase
 * emulators:start --only auth` runs, started in this process on a random loopback port. The
 * CLI wrapper is left out on purpose: it reserves fixed hub and logging ports (so two test
 * files could not run side by side) and asks the network for its message of the day.
 */
export async function startFirebaseAuthEmulator(
  projectId = EMULATOR_PROJECT_ID,
): Promise<FirebaseAuthEmulator> {
  const require = createRequire(path.join(FIREBASE_TOOLS_DIR, "package.json"));
  const { createApp } =
    require("firebase-tools/lib/emulator/auth/server.js") as EmulatorServerModule;
  const app = await createApp(projectId);
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;
  return {
    host,
    port,
    url,
    projectId,
    async signInWithIdp(account) {
      // The emulator takes the provider's ID token as plain JSON claims, as its popup page does.
      const claims = {
        sub: account.rawId,
        email: account.email,
        email_verified: account.emailVerified ?? true,
        name: account.displayName,
        picture: account.photoUrl,
      };
      const response = await fetch(
        `${url}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-api-key`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            postBody: `id_token=${encodeURIComponent(JSON.stringify(claims))}&providerId=${account.providerId}`,
            requestUri: "http://localhost",
            returnSecureToken: true,
          }),
        },
      );
      const body = (await response.json()) as Partial<SignedInAtEmulator>;
      if (!response.ok || !body.idToken || !body.localId) {
        throw new Error(`emulator sign-in failed: ${response.status} ${JSON.stringify(body)}`);
      }
      return { idToken: body.idToken, localId: body.localId };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

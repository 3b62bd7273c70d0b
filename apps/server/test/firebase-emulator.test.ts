import { randomBytes } from "node:crypto";
import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FirebaseAuthEmulator,
  firebaseToolsInstalled,
  type IdpAccount,
  startFirebaseAuthEmulator,
} from "../../../test-support/firebase-emulator";
import { countUsers, signUp, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

/**
 * POST /api/auth/register and account linking with tokens from the real Firebase Auth
 * emulator (firebase-tools), which the server accepts because FIREBASE_AUTH_EMULATOR_HOST
 * is set — and refuses, like any unsigned token, where it is not.
 */

/** Installed apart from the project (test-support/firebase-emulator.ts); skipped loudly without. */
const FIREBASE_TOOLS = firebaseToolsInstalled();
let emulator: FirebaseAuthEmulator;
let t: TestApp;
let strict: TestApp;

beforeAll(async () => {
  if (!FIREBASE_TOOLS) return;
  emulator = await startFirebaseAuthEmulator();
  const firebase = {
    FIREBASE_PROJECT_ID: emulator.projectId,
    FIREBASE_API_KEY: "fake-api-key",
    FIREBASE_PROVIDERS: "google,github",
  };
  t = await createTestApp({ ...firebase, FIREBASE_AUTH_EMULATOR_HOST: emulator.host });
  // Same project, no emulator variable: only Google-signed tokens (an unreachable JWKS here).
  strict = await createTestApp({ ...firebase, FIREBASE_JWKS_URL: "http://127.0.0.1:9/jwks" });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await emulator?.close();
});
beforeEach(({ skip }) => {
  if (!FIREBASE_TOOLS) skip("firebase-tools is not installed");
});

function rawId(): string {
  return randomBytes(8).toString("hex");
}

function google(email: string, extra: Partial<IdpAccount> = {}): IdpAccount {
  return { providerId: "google.com", rawId: rawId(), email, displayName: "Grace Hopper", ...extra };
}

/** The web app's sync call (the data model payload) after a popup sign-in as `account`. */
async function register(account: IdpAccount, client = new TestClient(t.app)) {
  const { idToken, localId } = await emulator.signInWithIdp(account);
  const response = await client.post("/api/auth/register", {
    uid: localId,
    email: account.email ?? null,
    displayName: account.displayName ?? null,
    photoURL: account.photoUrl ?? null,
    idToken,
  });
  return { response, client, localId, idToken };
}

describe("POST /api/auth/register with emulator tokens", () => {
  it("publishes the web config with the emulator and the enabled providers", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/providers" });
    expect(response.json()).toMatchObject({
      google: true,
      googleMode: "firebase",
      firebase: {
        apiKey: "fake-api-key",
        projectId: emulator.projectId,
        providers: ["google", "github"],
        emulatorUrl: emulator.url,
      },
    });
  });

  it("creates an account on the first sign-in, reuses it on the second, sets the cookie", async () => {
    const account = google(uniqueEmail("grace"), { photoUrl: "https://example.com/grace.png" });
    const first = await register(account);
    expect(first.response.statusCode).toBe(200);
    const body = first.response.json();
    expect(body).toMatchObject({
      success: true,
      user: {
        email: account.email,
        displayName: "Grace Hopper",
        firstName: "Grace",
        lastName: "Hopper",
        photoURL: "https://example.com/grace.png",
        uid: first.localId,
        emailVerified: true,
      },
    });
    expect(first.response.cookies.find((c) => c.name === SIGN_IN_COOKIE)?.value).toBe(body.token);
    const me = await first.client.get("/api/users/profile");
    expect(me.json().user.id).toBe(body.user.id);

    const second = await register(account);
    expect(second.response.statusCode).toBe(200);
    expect(second.response.json().user.id).toBe(body.user.id);
  });

  it("signs in with GitHub and links it to the account with the same verified email", async () => {
    const email = uniqueEmail("linus");
    const viaGoogle = await register(google(email));
    const viaGithub = await register({
      providerId: "github.com",
      rawId: rawId(),
      email,
      displayName: "Linus",
    });
    expect(viaGithub.response.statusCode).toBe(200);
    expect(viaGithub.response.json().user.id).toBe(viaGoogle.response.json().user.id);
    const list = await viaGithub.client.get("/api/auth/identities");
    expect(list.json()).toMatchObject({
      hasPassword: false,
      identities: [{ provider: "google" }, { provider: "github" }],
    });
  });

  it("never lets an unverified provider email take over an existing account", async () => {
    const { email, user } = await signUp(t.app);
    const before = await countUsers(t);
    const { response } = await register(google(email, { emailVerified: false }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("identity_email_unverified");
    expect(response.cookies.find((c) => c.name === SIGN_IN_COOKIE)).toBeUndefined();
    expect(await countUsers(t)).toBe(before);
    const { rows } = await t.db.query("SELECT 1 FROM user_identities WHERE user_id = $1", [
      user.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("creates an unverified account from an unverified email nobody uses", async () => {
    const { response } = await register(google(uniqueEmail("new"), { emailVerified: false }));
    expect(response.statusCode).toBe(200);
    expect(response.json().user.emailVerified).toBe(false);
  });

  it("refuses a token whose uid or email differs from the payload", async () => {
    const { idToken, localId } = await emulator.signInWithIdp(google(uniqueEmail("x")));
    const client = new TestClient(t.app);
    const otherUid = await client.post("/api/auth/register", {
      uid: `${localId}-victim`,
      email: "x@example.com",
      idToken,
    });
    expect(otherUid.statusCode).toBe(401);
    expect(otherUid.json().error.code).toBe("invalid_id_token");
  });

  it("refuses an emulator token that was tampered with", async () => {
    const { idToken, localId } = await emulator.signInWithIdp(google(uniqueEmail("t")));
    const [header, payload] = idToken.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...claims, aud: "another-project" })).toString("base64url"),
      "",
    ].join(".");
    const response = await new TestClient(t.app).post("/api/auth/register", {
      uid: localId,
      email: claims.email,
      idToken: forged,
    });
    expect(response.statusCode).toBe(401);
  });

  it("refuses the emulator's unsigned tokens without FIREBASE_AUTH_EMULATOR_HOST", async () => {
    const account = google(uniqueEmail("strict"));
    const before = await countUsers(strict);
    const { response } = await register(account, new TestClient(strict.app));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("invalid_id_token");
    expect(await countUsers(strict)).toBe(before);
  });
});

describe("Linking and unlinking sign-in providers", () => {
  it("links GitHub to a password account, and unlinks it (the password remains)", async () => {
    const { client } = await signUp(t.app);
    const { idToken } = await emulator.signInWithIdp({
      providerId: "github.com",
      rawId: rawId(),
      email: uniqueEmail("other-address"),
    });
    const linked = await client.post("/api/auth/identities", { idToken });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({
      hasPassword: true,
      identities: [{ provider: "github" }],
    });
    const removed = await client.delete("/api/auth/identities/github");
    expect(removed.statusCode).toBe(200);
    expect((await client.get("/api/auth/identities")).json().identities).toEqual([]);
  });

  it("refuses to link a provider account that belongs to another user", async () => {
    const owner = google(uniqueEmail("owner"));
    await register(owner);
    const { client } = await signUp(t.app);
    const { idToken } = await emulator.signInWithIdp(owner);
    const response = await client.post("/api/auth/identities", { idToken });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("identity_in_use");
  });

  it("keeps the last way to sign in: no password and one provider", async () => {
    const { client } = await register(google(uniqueEmail("only")));
    const refused = await client.delete("/api/auth/identities/google");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "last_sign_in_method",
      message: expect.stringContaining("only way to sign in"),
    });
    // With a second provider linked, either one may go — but not both.
    const { idToken } = await emulator.signInWithIdp({
      providerId: "github.com",
      rawId: rawId(),
      email: uniqueEmail("gh"),
    });
    expect((await client.post("/api/auth/identities", { idToken })).statusCode).toBe(200);
    expect((await client.delete("/api/auth/identities/google")).statusCode).toBe(200);
    expect((await client.delete("/api/auth/identities/github")).statusCode).toBe(409);
  });

  it("needs a sign-in, and answers 404 for a provider that is not linked", async () => {
    const anonymous = await new TestClient(t.app).get("/api/auth/identities");
    expect(anonymous.statusCode).toBe(401);
    const { client } = await signUp(t.app, { password: TEST_PASSWORD });
    expect((await client.delete("/api/auth/identities/facebook")).statusCode).toBe(404);
    expect((await client.delete("/api/auth/identities/myspace")).statusCode).toBe(400);
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countUsers, logIn, signUp, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

const PROJECT = "cohort-test-project";
const ISSUER = `https://securetoken.google.com/${PROJECT}`;
const KID = "test-key-1";

type Key = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

let t: TestApp;
let jwksServer: Server;
let signingKey: Key;
let strangerKey: Key;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: "RS256", use: "sig" };
  // Stands in for Google's securetoken JWKS endpoint.
  jwksServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  const port = (jwksServer.address() as AddressInfo).port;
  t = await createTestApp({
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_API_KEY: "public-web-api-key",
    FIREBASE_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
  });
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
});

interface TokenOptions {
  uid: string;
  email: string;
  emailVerified?: boolean;
  /** The Google account id in `firebase.identities`; defaults to one derived from uid. */
  googleSub?: string;
  authTime?: number | null;
  audience?: string;
  issuer?: string;
  expiresAt?: number;
  key?: Key;
  alg?: string;
}

function idToken(options: TokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: options.email,
    email_verified: options.emailVerified ?? true,
    name: "Grace Hopper",
    picture: "https://example.com/grace.png",
    ...(options.authTime === null ? {} : { auth_time: options.authTime ?? now - 10 }),
    firebase: {
      sign_in_provider: "google.com",
      identities: {
        "google.com": [options.googleSub ?? `google-${options.uid}`],
        email: [options.email],
      },
    },
  })
    .setProtectedHeader({ alg: options.alg ?? "RS256", kid: KID })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? PROJECT)
    .setSubject(options.uid)
    .setIssuedAt(now - 10)
    .setExpirationTime(options.expiresAt ?? now + 3600)
    .sign(options.key ?? signingKey);
}

/** The sign-in body for u-x (x@example.com) with a token for them that `claims` alters. */
async function signInAsX(claims: Partial<TokenOptions>) {
  const who = { uid: "u-x", email: "x@example.com" };
  return { ...who, idToken: await idToken({ ...who, ...claims }) };
}

function register(body: Record<string, unknown>) {
  return new TestClient(t.app).post("/api/auth/register", body);
}

describe("Firebase Google sign-in (POST /api/auth/register)", () => {
  it("tells the web app that Firebase sign-in is available, with its public config", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/providers" });
    expect(response.json()).toEqual({
      google: true,
      googleMode: "firebase",
      firebase: {
        apiKey: "public-web-api-key",
        authDomain: `${PROJECT}.firebaseapp.com`,
        projectId: PROJECT,
        storageBucket: null,
        messagingSenderId: null,
        appId: null,
        providers: ["google"],
        emulatorUrl: null,
      },
      welcomeCredits: 50,
    });
  });

  it("creates a verified account from a valid token and signs it in", async () => {
    const email = uniqueEmail("google");
    const uid = "firebase-uid-1";
    const response = await register({
      uid,
      email,
      displayName: "Grace Hopper",
      photoURL: "https://example.com/grace.png",
      idToken: await idToken({ uid, email }),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      token: expect.any(String),
      user: {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        displayName: "Grace Hopper",
        photoURL: "https://example.com/grace.png",
        emailVerified: true,
      },
    });
    expect(response.cookies.find((c) => c.name === SIGN_IN_COOKIE)?.value).toBe(body.token);

    const again = await register({ uid, email, idToken: await idToken({ uid, email }) });
    expect(again.json().user.id).toBe(body.user.id);
  });

  it("links to an existing password account with the same (verified) address", async () => {
    const { email, user } = await signUp(t.app);
    const uid = "firebase-uid-2";
    const response = await register({ uid, email, idToken: await idToken({ uid, email }) });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: user.id, emailVerified: true });
    expect((await logIn(t.app, email, TEST_PASSWORD)).response.statusCode).toBe(200);
  });

  it("refuses to link when the provider has not verified the address", async () => {
    const { email } = await signUp(t.app);
    const uid = "firebase-uid-3";
    const response = await register({
      uid,
      email,
      idToken: await idToken({ uid, email, emailVerified: false }),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("identity_email_unverified");
  });

  it.each([
    ["no token at all", async () => ({ uid: "u-x", email: "x@example.com" })],
    ["a token signed by another key", async () => signInAsX({ key: strangerKey })],
    ["a token for another project", async () => signInAsX({ audience: "other-project" })],
    [
      "a token from another issuer",
      async () => signInAsX({ issuer: "https://securetoken.google.com/other-project" }),
    ],
    ["an expired token", async () => signInAsX({ expiresAt: Math.floor(Date.now() / 1000) - 60 })],
    [
      "a token authenticated in the future",
      async () => signInAsX({ authTime: Math.floor(Date.now() / 1000) + 600 }),
    ],
    ["a token without auth_time", async () => signInAsX({ authTime: null })],
    [
      "a token for another uid",
      async () => ({
        uid: "victim-uid",
        email: "x@example.com",
        idToken: await idToken({ uid: "attacker-uid", email: "x@example.com" }),
      }),
    ],
    [
      "a token for another email",
      async () => ({
        uid: "u-x",
        email: "victim@example.com",
        idToken: await idToken({ uid: "u-x", email: "attacker@example.com" }),
      }),
    ],
    [
      "an unsigned token",
      async () => ({
        uid: "u-x",
        email: "x@example.com",
        idToken: `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(
          JSON.stringify({ sub: "u-x", email: "x@example.com", aud: PROJECT, iss: ISSUER }),
        ).toString("base64url")}.`,
      }),
    ],
  ])("refuses %s and creates nothing", async (_case, makeBody) => {
    const before = await countUsers(t);
    const response = await register({
      displayName: "Forged",
      photoURL: null,
      ...(await makeBody()),
    });
    expect([400, 401]).toContain(response.statusCode);
    if (response.statusCode === 401) expect(response.json().error.code).toBe("invalid_id_token");
    expect(response.cookies.find((c) => c.name === SIGN_IN_COOKIE)).toBeUndefined();
    expect(await countUsers(t)).toBe(before);
  });
});

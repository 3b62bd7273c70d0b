import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { TAuthResponse, TOutboxMessage, TUserProfile } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Env } from "../../src/config";
import { listOutbox } from "../../src/platform/mail";
import { createTestApp, type TestApp } from "./app";
import { TestClient } from "./client";

/**
 * Account helpers for integration tests of every issue: sign a user up (accepting the current
 * agreement, as the web app's sign-up modal does) and read what the dev outbox received.
 */
export const TEST_PASSWORD = "correct horse battery staple";

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.com`;
}

export interface SignUpOptions {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  /** false signs up without accepting the agreement (the user then gets agreement_required). */
  acceptAgreement?: boolean;
  /** true also confirms the address from the emailed link (which brings SIGNUP_CREDITS). */
  verified?: boolean;
}

export interface SignedUp {
  client: TestClient;
  user: TUserProfile;
  token: string;
  email: string;
  password: string;
}

/** Signs up through the real calls with a browser-like client, which keeps the sign-in cookie. */
export async function signUp(
  appOrClient: FastifyInstance | TestClient,
  options: SignUpOptions = {},
): Promise<SignedUp> {
  const client = appOrClient instanceof TestClient ? appOrClient : new TestClient(appOrClient);
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? TEST_PASSWORD;
  let agreementId: string | undefined;
  if (options.acceptAgreement !== false) {
    const current = await client.get("/api/agreements/current");
    if (current.statusCode === 200) agreementId = current.json().agreement.id;
  }
  const response = await client.post("/api/user-auth/signup", {
    email,
    password,
    firstName: options.firstName ?? "Ada",
    lastName: options.lastName ?? "Lovelace",
    ...(agreementId ? { agreementId } : {}),
  });
  if (response.statusCode !== 201) {
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  }
  const body = response.json() as TAuthResponse;
  if (options.verified) {
    const app = appOrClient instanceof TestClient ? appOrClient.app : appOrClient;
    const token = linkToken(await waitForMail(app, email), "/verify-email");
    const verified = await client.post("/api/user-auth/verify-email", { token });
    if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.body}`);
    const profile = (await client.get("/api/users/profile")).json() as { user: TUserProfile };
    return { client, user: profile.user, token: body.token, email, password };
  }
  return { client, user: body.user, token: body.token, email, password };
}

/** A random documentation address (TEST-NET-2), so per-IP login limits do not add up. */
export function randomTestIp(): string {
  return `198.51.100.${1 + ((randomBytes(1)[0] as number) % 254)}`;
}

/** Signs in with email and password through a new browser-like client from a random IP. */
export async function logIn(app: FastifyInstance, email: string, password: string) {
  const client = new TestClient(app, randomTestIp());
  const response = await client.post("/api/user-auth/login", { email, password });
  return { client, response };
}

/** Waits for the newest dev-outbox email to `to` (mail is sent after the answer). */
export async function waitForMail(
  app: FastifyInstance,
  to: string,
  match: (message: TOutboxMessage) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<TOutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await listOutbox(app.db)).find((m) => m.to === to && match(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** The token of the first `/<path>?token=` link in an email's text. */
export function linkToken(
  message: TOutboxMessage,
  path: "/verify-email" | "/reset-password",
): string {
  const match = new RegExp(`https?://[^\\s]+${path}\\?token=([\\w-]+)`).exec(message.text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${message.text}`);
  return match[1];
}

/**
 * A browser-like client signed in through POST /api/admin/login. The app must have been
 * built with ADMIN_EMAIL / ADMIN_PASSWORD set to these values.
 */
export async function adminClient(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<TestClient> {
  const client = new TestClient(app);
  const response = await client.post("/api/admin/login", { email, password });
  if (response.statusCode !== 200) {
    throw new Error(`admin login failed: ${response.statusCode} ${response.body}`);
  }
  return client;
}

/**
 * Publishes a new agreement version as `admin` (by default effective 2026-03-01, its text
 * naming the version, not declinable); the answer must be 201.
 */
export async function publishAgreement(
  admin: TestClient,
  version: string,
  fields: { content?: string; effectiveDate?: string; allowDecline?: boolean } = {},
): Promise<{ id: string; version: string; allowDecline: boolean }> {
  const response = await admin.post("/api/admin/agreements", {
    version,
    content: fields.content ?? `# Cohort User Agreement\n\nVersion ${version}.`,
    effectiveDate: fields.effectiveDate ?? "2026-03-01",
    allowDecline: fields.allowDecline ?? false,
  });
  expect(response.statusCode).toBe(201);
  return response.json().agreement;
}

/** How many accounts the app's database holds. */
export async function countUsers(t: Pick<TestApp, "db">): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
  return rows[0]?.n ?? 0;
}

/** A fresh app and one user signed up on it, for files that test one account's calls. */
export async function appWithUser(env: Env = {}): Promise<{ t: TestApp; user: SignedUp }> {
  const t = await createTestApp(env);
  return { t, user: await signUp(t.app) };
}

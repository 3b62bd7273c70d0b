import { setTimeout as sleep } from "node:timers/promises";
import {
  SIGN_IN_COOKIE,
  type TAgreement,
  type TAuthResponse,
  type TOutboxMessage,
} from "@cohort/contracts";
import type { BrowserContext } from "playwright-core";
import { inject } from "vitest";
import { type ApiCallOptions, apiCall, type HttpMethod } from "../../test-support/api-client.mjs";
import { baseURL } from "./browser";

/**
 * Node-side calls to the e2e server, for what a test prepares or checks outside the browser:
 * accounts made through the API, the admin's view of the dev outbox, agreement versions.
 * Calls with a sign-in use the Bearer token (exempt from CSRF, as for any API client); the
 * anonymous sign-up and login calls fetch a CSRF token with its cookie first, like a browser.
 */
export const TEST_PASSWORD = "correct-horse-battery-staple";

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

/** The shared API client bound to the e2e server (a minute's patience: one machine, many tests). */
function call<T>(method: HttpMethod, path: string, options: ApiCallOptions = {}): Promise<T> {
  return apiCall<T>(baseURL(), method, path, { timeoutMs: 60_000, ...options });
}

export async function currentAgreement(): Promise<TAgreement> {
  const { agreement } = await call<{ agreement: TAgreement }>("GET", "/api/agreements/current");
  return agreement;
}

export interface TestUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
  displayName: string;
}

/**
 * A new account that has accepted the current agreement, as the sign-up modal records it,
 * and (unless `verified: false`) confirmed its address from the emailed link — which is when
 * the welcome credits arrive.
 */
export async function createUser(
  overrides: Partial<Pick<TestUser, "email" | "firstName" | "lastName">> & {
    verified?: boolean;
  } = {},
): Promise<TestUser> {
  const agreement = await currentAgreement();
  const body = {
    email: overrides.email ?? uniqueEmail(),
    password: TEST_PASSWORD,
    firstName: overrides.firstName ?? "Ada",
    lastName: overrides.lastName ?? "Lovelace",
    agreementId: agreement.id,
  };
  const response = await call<TAuthResponse>("POST", "/api/user-auth/signup", {
    body,
    anonymousMutation: true,
  });
  if (overrides.verified !== false) await verifyEmail(body.email);
  return {
    email: body.email,
    password: body.password,
    firstName: body.firstName,
    lastName: body.lastName,
    token: response.token,
    displayName: response.user.displayName,
  };
}

export async function logInViaApi(email: string, password: string): Promise<string> {
  const response = await call<TAuthResponse>("POST", "/api/user-auth/login", {
    body: { email, password },
    anonymousMutation: true,
  });
  return response.token;
}

/** Puts a sign-in into a browser context the way a sign-in would: as the HttpOnly cookie. */
export async function signInContext(context: BrowserContext, token: string): Promise<void> {
  await context.addCookies([
    { name: SIGN_IN_COOKIE, value: token, url: baseURL(), httpOnly: true, sameSite: "Lax" },
  ]);
}

export async function adminToken(): Promise<string> {
  const response = await call<TAuthResponse>("POST", "/api/admin/login", {
    body: { email: inject("adminEmail"), password: inject("adminPassword") },
    anonymousMutation: true,
  });
  return response.token;
}

export async function outbox(): Promise<TOutboxMessage[]> {
  const { messages } = await call<{ messages: TOutboxMessage[] }>("GET", "/api/admin/outbox", {
    bearer: await adminToken(),
  });
  return messages;
}

/** Waits for the newest email to `to` whose subject matches, and returns it. */
export async function waitForEmail(to: string, subject: RegExp): Promise<TOutboxMessage> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = (await outbox()).find((m) => m.to === to && subject.test(m.subject));
    if (found) return found;
    await sleep(200);
  }
  throw new Error(`No email to ${to} matching ${subject} arrived within 10 s`);
}

/** Confirms the address from its verification email, as its owner would. */
export async function verifyEmail(email: string): Promise<void> {
  const message = await waitForEmail(email, /confirm your email/i);
  const token = new URL(linkIn(message, "/verify-email?token=")).searchParams.get("token");
  await call("POST", "/api/user-auth/verify-email", { body: { token }, anonymousMutation: true });
}

/** The first link to `path` in an email's text body. */
export function linkIn(message: TOutboxMessage, path: string): string {
  const match = new RegExp(`https?://\\S+${path.replace(/[/?]/g, "\\$&")}\\S*`).exec(message.text);
  if (!match) throw new Error(`No ${path} link in: ${message.text}`);
  return match[0];
}

/** A long agreement text, so the modal has to be scrolled. */
export function longAgreementText(version: string): string {
  const sections = Array.from(
    { length: 30 },
    (_, i) =>
      `## ${i + 1}. Section ${i + 1}\n\nThis is paragraph ${i + 1} of version ${version} of the Cohort User Agreement. It is long enough to need scrolling before it can be accepted.`,
  );
  return `# Cohort User Agreement ${version}\n\n${sections.join("\n\n")}`;
}

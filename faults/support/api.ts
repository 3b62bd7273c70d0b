import { randomBytes } from "node:crypto";
import type {
  TAgreement,
  TAuthResponse,
  TChatResponse,
  TRunEvent,
  TRunEventsResponse,
  TSession,
  TSessionDetailResponse,
} from "@cohort/contracts";
import { apiCall } from "../../test-support/api-client.mjs";

/**
 * The public HTTP API of one instance, as any API client calls it (the shared client in
 * test-support): anonymous mutations fetch a CSRF token with its cookie first (like a
 * browser), signed-in calls use the Bearer token. A sign-in made on one instance works on
 * every other (same COOKIE_SECRET, one database).
 */
export const TEST_PASSWORD = "correct-horse-battery-staple";

export function uniqueEmail(prefix = "fault"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.test`;
}

export interface FaultUser {
  id: string;
  email: string;
  token: string;
}

/** A new account that accepted the current agreement, as the sign-up modal records it. */
export async function signUp(baseUrl: string): Promise<FaultUser> {
  const { agreement } = await apiCall<{ agreement: TAgreement }>(
    baseUrl,
    "GET",
    "/api/agreements/current",
  );
  const email = uniqueEmail();
  const response = await apiCall<TAuthResponse>(baseUrl, "POST", "/api/user-auth/signup", {
    body: {
      email,
      password: TEST_PASSWORD,
      firstName: "Fault",
      lastName: "Tester",
      agreementId: agreement.id,
    },
    anonymousMutation: true,
  });
  return { id: response.user.id, email, token: response.token };
}

export async function adminToken(baseUrl: string, email: string, password: string) {
  const response = await apiCall<TAuthResponse>(baseUrl, "POST", "/api/admin/login", {
    body: { email, password },
    anonymousMutation: true,
  });
  return response.token;
}

/** An administrator's grant: a ledger row, as on the admin pages. */
export async function grantCredits(
  baseUrl: string,
  admin: string,
  userId: string,
  credits: number,
): Promise<void> {
  await apiCall(baseUrl, "POST", `/api/admin/users/${userId}/credits`, {
    bearer: admin,
    body: { delta: credits, reason: "Fault tests", idempotencyKey: randomBytes(8).toString("hex") },
  });
}

export async function createSession(baseUrl: string, token: string): Promise<TSession> {
  const { session } = await apiCall<{ session: TSession }>(baseUrl, "POST", "/api/sessions", {
    bearer: token,
    body: { title: "Fault session" },
  });
  return session;
}

export function sendMessage(
  baseUrl: string,
  token: string,
  sessionId: string,
  message: string,
): Promise<TChatResponse> {
  return apiCall<TChatResponse>(baseUrl, "POST", "/api/ai/chat", {
    bearer: token,
    body: { session_id: sessionId, message },
  });
}

/** The session's stored events after `after`, every page. */
export async function sessionEvents(
  baseUrl: string,
  token: string,
  sessionId: string,
  after = 0,
): Promise<TRunEvent[]> {
  const events: TRunEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = await apiCall<TRunEventsResponse>(
      baseUrl,
      "GET",
      `/api/sessions/${sessionId}/events?after=${cursor}&limit=5000`,
      { bearer: token },
    );
    events.push(...page.events);
    cursor = page.events.at(-1)?.seq ?? cursor;
    if (!page.has_more) return events;
  }
}

export function sessionDetail(
  baseUrl: string,
  token: string,
  sessionId: string,
): Promise<TSessionDetailResponse> {
  return apiCall<TSessionDetailResponse>(baseUrl, "GET", `/api/sessions/${sessionId}`, {
    bearer: token,
  });
}

export const RUN_ENDS = new Set(["run.completed", "run.failed", "run.cancelled"]);

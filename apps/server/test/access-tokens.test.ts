import { createHash } from "node:crypto";
import {
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKENS_PER_USER,
  SIGN_IN_COOKIE,
  type TAccessTokenInfo,
  type TAccessTokenScope,
  ZAccessTokensResponse,
  ZCreatedAccessTokenResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateAccessToken } from "../src/modules/access-tokens/authenticate-access-token";
import { createTestAccessToken } from "./support/access-tokens";
import { adminClient, publishAgreement, type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

/**
 * Personal access tokens: the Settings routes (create, list, revoke; shown once, stored
 * hashed) and `authenticateAccessToken`, which the public API and MCP use. Until those exist
 * in this file's app, test-only routes call it, one per scope, the way they will.
 */

const ADMIN_EMAIL = "admin@cohort.example";
const ADMIN_PASSWORD = "admin passphrase for tests";

/** Test-only routes that answer who the token is, or the refusal as the API would. */
function addProbeRoutes(app: FastifyInstance) {
  const probe =
    (scope: TAccessTokenScope | null) =>
    async (
      request: Parameters<typeof authenticateAccessToken>[1],
      reply: import("fastify").FastifyReply,
    ) => {
      const auth = await authenticateAccessToken(app, request, scope);
      if (!auth.ok) {
        if (auth.retryAfterSeconds !== undefined) {
          reply.header("retry-after", String(auth.retryAfterSeconds));
        }
        return reply.code(auth.status).send({
          error: { code: auth.code, message: auth.message },
          retryAfterSeconds: auth.retryAfterSeconds ?? null,
        });
      }
      return {
        userId: auth.principal.user.id,
        email: auth.principal.user.email,
        tokenId: auth.tokenId,
        scopes: auth.scopes,
        signInId: auth.principal.signInId,
      };
    };
  app.get("/api/__test/pat/any", probe(null));
  app.get("/api/__test/pat/sessions", probe("sessions:read"));
  app.post("/api/__test/pat/chat", probe("chat"));
}

async function buildApp(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await createTestApp({ ADMIN_EMAIL, ADMIN_PASSWORD, ...env });
  addProbeRoutes(app.app);
  await app.app.ready();
  return app;
}

let t: TestApp;
let alice: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  t = await buildApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
});
afterAll(() => t.close());

/** A request with a bearer token and nothing else (no cookie, no CSRF token). */
function withToken(
  token: string,
  method: "GET" | "POST",
  url: string,
  remoteAddress = "203.0.113.7",
  app = t.app,
) {
  return app.inject({
    method,
    url,
    remoteAddress,
    headers: { authorization: `Bearer ${token}` },
    ...(method === "POST" ? { payload: {} } : {}),
  });
}

async function listOf(client: TestClient): Promise<TAccessTokenInfo[]> {
  const response = await client.get("/api/users/access-tokens");
  expect(response.statusCode).toBe(200);
  return ZAccessTokensResponse.parse(response.json()).tokens;
}

describe("creating a token", () => {
  it("answers 201 with the token once; the list never shows it again", async () => {
    const response = await alice.client.post("/api/users/access-tokens", {
      name: "  CI pipeline ",
      scopes: ["chat", "sessions:read", "chat"],
      expires_in_days: 30,
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers["cache-control"]).toBe("no-store");
    const created = ZCreatedAccessTokenResponse.parse(response.json());
    expect(created.token).toMatch(/^cohort_pat_[A-Za-z0-9_-]{43}$/);
    expect(created.info).toMatchObject({
      name: "CI pipeline",
      prefix: "cohort_pat_",
      last4: created.token.slice(-4),
      scopes: ["chat", "sessions:read"],
      last_used_at: null,
      last_used_ip: null,
      revoked_at: null,
    });
    const days = (Date.parse(created.info.expires_at ?? "") - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    const listed = await alice.client.get("/api/users/access-tokens");
    expect(listed.body).not.toContain(created.token);
    expect(listed.body).not.toContain(created.token.slice(11, 30));
    expect((await listOf(alice.client)).find((x) => x.id === created.info.id)).toEqual(
      created.info,
    );
  });

  it("stores only the token's SHA-256, in no column the token itself", async () => {
    const { token, info } = await createTestAccessToken(alice.client);
    const { rows } = await t.db.query<Record<string, unknown>>(
      "SELECT * FROM access_tokens WHERE id = $1",
      [info.id],
    );
    expect(rows[0]?.token_hash).toBe(createHash("sha256").update(token).digest("base64url"));
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice("cohort_pat_".length));
  });

  it("makes every token different", async () => {
    const a = await createTestAccessToken(alice.client);
    const b = await createTestAccessToken(alice.client);
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    ["no name", { name: "   ", scopes: ["chat"] }],
    ["a name too long", { name: "x".repeat(65), scopes: ["chat"] }],
    ["a control character in the name", { name: "ci\u0007bell", scopes: ["chat"] }],
    ["no scope", { name: "ci", scopes: [] }],
    ["an unknown scope", { name: "ci", scopes: ["admin"] }],
    ["a zero-day expiry", { name: "ci", scopes: ["chat"], expires_in_days: 0 }],
    ["an expiry over a year", { name: "ci", scopes: ["chat"], expires_in_days: 366 }],
  ])("refuses %s (400) and creates nothing", async (_what, body) => {
    const before = (await listOf(bob.client)).length;
    const response = await bob.client.post("/api/users/access-tokens", body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("validation_failed");
    expect((await listOf(bob.client)).length).toBe(before);
  });

  it("never expires without expires_in_days, or with null", async () => {
    const a = await createTestAccessToken(bob.client);
    const b = await createTestAccessToken(bob.client, { expiresInDays: null });
    expect(a.info.expires_at).toBeNull();
    expect(b.info.expires_at).toBeNull();
  });

  it("needs a signed-in user, and the CSRF token from a browser", async () => {
    const anonymous = await new TestClient(t.app).post("/api/users/access-tokens", {
      name: "x",
      scopes: ["chat"],
    });
    expect(anonymous.statusCode).toBe(401);
    const noCsrf = await alice.client.post(
      "/api/users/access-tokens",
      { name: "x", scopes: ["chat"] },
      { csrf: false },
    );
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.code).toBe("csrf_invalid");
  });

  it("needs the agreement accepted: a token spends credits", async () => {
    const undecided = await signUp(t.app, { acceptAgreement: false });
    const response = await undecided.client.post("/api/users/access-tokens", {
      name: "x",
      scopes: ["chat"],
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("agreement_required");
  });

  it(`allows ${ACCESS_TOKENS_PER_USER} active tokens per user; a revoked one frees a place`, async () => {
    const carol = await signUp(t.app);
    const made: string[] = [];
    for (let i = 0; i < ACCESS_TOKENS_PER_USER; i++) {
      made.push((await createTestAccessToken(carol.client, { name: `t${i}` })).info.id);
    }
    const over = await carol.client.post("/api/users/access-tokens", {
      name: "one too many",
      scopes: ["chat"],
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({
      code: "access_token_limit",
      message: ACCESS_TOKEN_MESSAGES.limitReached,
    });
    expect((await carol.client.delete(`/api/users/access-tokens/${made[0]}`)).statusCode).toBe(200);
    expect((await createTestAccessToken(carol.client, { name: "again" })).info.name).toBe("again");
  });
});

describe("using a token", () => {
  it("identifies its owner, with its scopes; records last use time and address", async () => {
    const { token, info } = await createTestAccessToken(alice.client);
    const response = await withToken(token, "GET", "/api/__test/pat/any", "203.0.113.9");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      userId: alice.user.id,
      email: alice.user.email,
      tokenId: info.id,
      scopes: ["chat", "sessions:read"],
      // Never a sign-in's id: sign-in revocation and socket rooms cannot match it.
      signInId: info.id,
    });
    const listed = (await listOf(alice.client)).find((x) => x.id === info.id);
    expect(listed?.last_used_ip).toBe("203.0.113.9");
    expect(Date.now() - Date.parse(listed?.last_used_at ?? "")).toBeLessThan(60_000);
  });

  it("writes last use at most once a minute per token", async () => {
    const { token, info } = await createTestAccessToken(alice.client);
    expect((await withToken(token, "GET", "/api/__test/pat/any", "203.0.113.10")).statusCode).toBe(
      200,
    );
    const first = (await listOf(alice.client)).find((x) => x.id === info.id);
    expect((await withToken(token, "GET", "/api/__test/pat/any", "203.0.113.11")).statusCode).toBe(
      200,
    );
    const second = (await listOf(alice.client)).find((x) => x.id === info.id);
    expect(second?.last_used_at).toBe(first?.last_used_at);
    expect(second?.last_used_ip).toBe("203.0.113.10");
    // A minute later, the next use is recorded.
    await t.db.query(
      "UPDATE access_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = $1",
      [info.id],
    );
    await withToken(token, "GET", "/api/__test/pat/any", "203.0.113.12");
    const third = (await listOf(alice.client)).find((x) => x.id === info.id);
    expect(third?.last_used_ip).toBe("203.0.113.12");
    expect(Date.now() - Date.parse(third?.last_used_at ?? "")).toBeLessThan(60_000);
  });

  it("is refused a scope it lacks (403 insufficient_scope), and allowed the one it has", async () => {
    const { token } = await createTestAccessToken(alice.client, { scopes: ["sessions:read"] });
    const chat = await withToken(token, "POST", "/api/__test/pat/chat");
    expect(chat.statusCode).toBe(403);
    expect(chat.json().error).toEqual({
      code: "insufficient_scope",
      message: ACCESS_TOKEN_MESSAGES.insufficientScope("chat"),
    });
    expect(chat.json().error.message).toContain('"chat" scope');
    expect((await withToken(token, "GET", "/api/__test/pat/sessions")).statusCode).toBe(200);
  });

  it("stops working at once when revoked", async () => {
    const { token, info } = await createTestAccessToken(alice.client);
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
    const revoked = await alice.client.delete(`/api/users/access-tokens/${info.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ success: true, message: ACCESS_TOKEN_MESSAGES.revoked });
    const after = await withToken(token, "GET", "/api/__test/pat/any");
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toEqual({
      code: "invalid_access_token",
      message: ACCESS_TOKEN_MESSAGES.invalid,
    });
    const listed = (await listOf(alice.client)).find((x) => x.id === info.id);
    expect(listed?.revoked_at).not.toBeNull();
  });

  it("stops working once expired", async () => {
    const { token, info } = await createTestAccessToken(alice.client, { expiresInDays: 7 });
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
    await t.db.query(
      "UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE id = $1",
      [info.id],
    );
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(401);
  });

  it("stops working when the owner's account is disabled", async () => {
    const dave = await signUp(t.app);
    const { token } = await createTestAccessToken(dave.client);
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
    await t.db.query("UPDATE users SET disabled_at = now() WHERE id = $1", [dave.user.id]);
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(401);
  });

  it("is refused when missing, malformed, altered, or a sign-in token instead", async () => {
    const { token } = await createTestAccessToken(alice.client);
    const missing = await t.app.inject({ method: "GET", url: "/api/__test/pat/any" });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.message).toBe(ACCESS_TOKEN_MESSAGES.missing);
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bearer of [
      altered,
      `${token}x`,
      token.slice(0, -1),
      "cohort_pat_",
      token.replace("cohort_pat_", "cohort_xyz_"),
      // A sign-in token is a valid credential for the cookie routes, never for the API.
      alice.token,
    ]) {
      const response = await withToken(bearer, "GET", "/api/__test/pat/any");
      expect(response.statusCode, bearer).toBe(401);
      expect(response.json().error.code).toBe("invalid_access_token");
    }
  });

  it("is not accepted by the cookie routes: the sign-in guard answers 401", async () => {
    const { token } = await createTestAccessToken(alice.client);
    for (const url of ["/api/users/profile", "/api/users/access-tokens", "/api/sessions"]) {
      const response = await withToken(token, "GET", url);
      expect(response.statusCode, url).toBe(401);
    }
    // "Who am I" answers nobody (its 200 for signed-out visitors), even with a cookie too:
    // a bearer header means exactly what it says.
    const cookie = `${SIGN_IN_COOKIE}=${alice.client.cookies.get(SIGN_IN_COOKIE) ?? ""}`;
    const me = (headers: Record<string, string>) =>
      t.app.inject({ method: "GET", url: "/api/auth/me", headers });
    expect((await me({ cookie })).json().user.id).toBe(alice.user.id);
    expect((await me({ cookie, authorization: `Bearer ${token}` })).json()).toEqual({
      user: null,
    });
    // Nor does it make a token: the creation route refuses it (no CSRF needed for a bearer,
    // but no sign-in either).
    const create = await t.app.inject({
      method: "POST",
      url: "/api/users/access-tokens",
      headers: { authorization: `Bearer ${token}` },
      payload: { name: "minted by a token", scopes: ["chat"] },
    });
    expect(create.statusCode).toBe(401);
    expect((await listOf(alice.client)).some((x) => x.name === "minted by a token")).toBe(false);
  });

  it("needs no CSRF token (a bearer carries no ambient credentials)", async () => {
    const { token } = await createTestAccessToken(alice.client);
    const response = await withToken(token, "POST", "/api/__test/pat/chat");
    expect(response.statusCode).toBe(200);
    expect(response.json().userId).toBe(alice.user.id);
  });
});

describe("revoking", () => {
  it("answers 404 for another user's token, which keeps working", async () => {
    const { token, info } = await createTestAccessToken(alice.client);
    const response = await bob.client.delete(`/api/users/access-tokens/${info.id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({
      code: "not_found",
      message: ACCESS_TOKEN_MESSAGES.notFound,
    });
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
  });

  it("answers 404 for ids that are not ids", async () => {
    for (const id of ["nope", "00000000-0000-0000-0000-000000000000", "1'; DROP TABLE x;--"]) {
      const response = await alice.client.delete(
        `/api/users/access-tokens/${encodeURIComponent(id)}`,
      );
      expect(response.statusCode, id).toBe(404);
    }
  });

  it("lists each user's own tokens only", async () => {
    const mine = await createTestAccessToken(bob.client, { name: "bob's own" });
    const aliceIds = new Set((await listOf(alice.client)).map((x) => x.id));
    expect(aliceIds.has(mine.info.id)).toBe(false);
    expect((await listOf(bob.client)).some((x) => x.id === mine.info.id)).toBe(true);
  });
});

describe("the per-token rate limit", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildApp({ ACCESS_TOKEN_RATE_PER_MINUTE: "3" });
  });
  afterAll(() => limited.close());

  it("answers 429 with a wait past the budget, per token, whatever the address", async () => {
    const erin = await signUp(limited.app);
    const first = await createTestAccessToken(erin.client);
    const second = await createTestAccessToken(erin.client);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await withToken(
        first.token,
        "GET",
        "/api/__test/pat/any",
        `203.0.113.${20 + i}`,
        limited.app,
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        const wait = response.json().retryAfterSeconds as number;
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
        expect(response.json().error).toEqual({
          code: "rate_limited",
          message: ACCESS_TOKEN_MESSAGES.rateLimited(wait),
        });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another token of the same user has its own budget.
    const other = await withToken(
      second.token,
      "GET",
      "/api/__test/pat/any",
      "203.0.113.30",
      limited.app,
    );
    expect(other.statusCode).toBe(200);
  });
});

describe("a new agreement version", () => {
  it("holds the token's calls (403 agreement_required) until the owner accepts it", async () => {
    const frank = await signUp(t.app);
    const { token } = await createTestAccessToken(frank.client);
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
    const admin = await adminClient(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const published = await publishAgreement(admin, "2.0");
    const held = await withToken(token, "GET", "/api/__test/pat/any");
    expect(held.statusCode).toBe(403);
    expect(held.json().error.code).toBe("agreement_required");
    const accepted = await frank.client.post("/api/agreements/accept", {
      agreementId: published.id,
      source: "web",
    });
    expect(accepted.statusCode).toBe(200);
    expect((await withToken(token, "GET", "/api/__test/pat/any")).statusCode).toBe(200);
  });
});

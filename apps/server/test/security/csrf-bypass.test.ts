/**
 * Advisory class: CSRF bypass (decision 018, finding 1). The router decodes and normalises paths,
 * so a check on the raw URL (`startsWith("/api/")`) let `POST /%61pi/sessions` through with a
 * cookie and no token. Every spelling of a path that reaches a route must meet the same CSRF
 * check and the same rate limit; method override and content type change nothing either.
 */
import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF_COOKIE } from "../../src/platform/csrf";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: "5" });
  const { client } = await signUp(t.app);
  // The victim's browser: a sign-in cookie and a CSRF cookie, but the attacker's page cannot
  // read the token, so it sends none.
  cookie = [SIGN_IN_COOKIE, CSRF_COOKIE].map((n) => `${n}=${client.cookies.get(n)}`).join("; ");
});
afterAll(() => t.close());

const count = async () => {
  const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions");
  return rows[0]?.n ?? 0;
};

/** Spellings of POST /api/sessions an attacker might try; each must not create a session. */
const VARIANTS = [
  "/api/sessions",
  "/%61pi/sessions",
  "/ap%69/sessions",
  "/%61%70%69/%73essions",
  "/API/sessions",
  "/Api/Sessions",
  "/api%2Fsessions",
  "/api%2fsessions",
  "/%2561pi/sessions",
  "/api/%2573essions",
  "//api/sessions",
  "/./api/sessions",
  "/api/./sessions",
  "/x/../api/sessions",
  "/api/sessions/",
  "/api/sessions.",
  "/api/sessions..",
  "/api./sessions",
  "/api/sessions;a=b",
  "/api;a=b/sessions",
  "/api/sessions?x=1",
  "/api/sessions#frag",
  "/api/sessions%00",
  "/api/sessions%20",
  "/api\\sessions",
];

describe("CSRF by path spelling", () => {
  it.each(VARIANTS)("POST %s with the cookie and no token changes nothing", async (url) => {
    const before = await count();
    const response = await t.app.inject({
      method: "POST",
      url,
      remoteAddress: `198.51.100.${VARIANTS.indexOf(url) + 1}`,
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ title: "forged", description: "by a same-site page" }),
    });
    expect([403, 404, 400]).toContain(response.statusCode);
    if (response.statusCode === 403) expect(response.json().error.code).toBe("csrf_invalid");
    expect(await count()).toBe(before);
  });

  it("checks the decoded spelling that does reach the route (it is not a 404)", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/%61pi/sessions",
      remoteAddress: "198.51.100.200",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ title: "forged" }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain("CSRF");
  });

  it("guards logout the same way: a forged sign-out is refused and the sign-in lives", async () => {
    for (const url of ["/%61pi/auth/logout", "/api/auth/logout", "/ap%69/auth/%6cogout"]) {
      const response = await t.app.inject({
        method: "POST",
        url,
        remoteAddress: "198.51.100.201",
        headers: { cookie },
      });
      expect(response.statusCode, url).toBe(403);
    }
    const profile = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      remoteAddress: "198.51.100.201",
      headers: { cookie },
    });
    expect(profile.statusCode).toBe(200);
  });
});

describe("CSRF and access-token bearers", () => {
  const tokens = async () => {
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM access_tokens",
    );
    return rows[0]?.n ?? 0;
  };
  const forge = (headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/%61pi/users/access-tokens",
      remoteAddress: "198.51.100.204",
      headers: { cookie, "content-type": "application/json", ...headers },
      payload: JSON.stringify({ name: "forged", scopes: ["chat"] }),
    });

  it("a forged token creation with the cookie and no CSRF token makes no token", async () => {
    const response = await forge({});
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("csrf_invalid");
    expect(await tokens()).toBe(0);
  });

  it("a made-up `Bearer cohort_pat_…` skips CSRF but then counts instead of the cookie: 401", async () => {
    const response = await forge({ authorization: `Bearer cohort_pat_${"A".repeat(43)}` });
    expect(response.statusCode).toBe(401);
    expect(await tokens()).toBe(0);
  });
});

describe("CSRF by method override and content type", () => {
  it("ignores X-HTTP-Method-Override and _method: a GET stays a GET, a POST is checked", async () => {
    const before = await count();
    for (const headers of [
      { "x-http-method-override": "GET" },
      { "x-http-method": "GET" },
      { "x-method-override": "GET" },
    ]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/sessions?_method=GET",
        remoteAddress: "198.51.100.202",
        headers: { cookie, "content-type": "application/json", ...headers },
        payload: JSON.stringify({ title: "forged" }),
      });
      expect(response.statusCode).toBe(403);
    }
    expect(await count()).toBe(before);
  });

  it.each([
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=utf-8",
    "application/csp-report",
  ])("a no-cors %s POST with the cookie is refused before its body is read", async (type) => {
    const before = await count();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/sessions",
      remoteAddress: "198.51.100.203",
      headers: { cookie, "content-type": type },
      payload: '{"title":"forged"}',
    });
    expect(response.statusCode).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe("rate limits by path spelling", () => {
  it("counts /%61pi/… against the same budget as /api/…", async () => {
    const ip = "198.51.100.250";
    const statuses: number[] = [];
    for (const url of [
      "/api/ai/models",
      "/%61pi/ai/models",
      "/ap%69/ai/%6dodels",
      "/api/ai/models/",
    ]) {
      for (let i = 0; i < 2; i++) {
        statuses.push((await t.app.inject({ method: "GET", url, remoteAddress: ip })).statusCode);
      }
    }
    // RATE_LIMIT_PER_MINUTE=5: five answers, then 429 whatever the spelling.
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
  });

  it("still never throttles the health probe", async () => {
    const ip = "198.51.100.251";
    for (let i = 0; i < 8; i++) {
      const response = await t.app.inject({ method: "GET", url: "/api/health", remoteAddress: ip });
      expect(response.statusCode).not.toBe(429);
    }
  });
});

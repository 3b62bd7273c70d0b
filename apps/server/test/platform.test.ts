import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { expectConsoleError } from "../../../test-support/fail-on-console-error";
import { CSRF_COOKIE, issueCsrfToken } from "../src/platform/csrf";
import { createTestApp, TEST_COOKIE_SECRET, type TestApp, testDbKind } from "./support/app";
import { TestClient } from "./support/client";
import { logCollector } from "./support/logs";

const { lines: logLines, stream: logStream } = logCollector();

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: "info" }, { logStream });
  const echoBody = z.object({ name: z.string().min(1), count: z.number().int().optional() });
  t.app.post("/api/__test/echo", { schema: { body: echoBody } }, async (request) => ({
    received: request.body,
  }));
  t.app.get("/api/__test/boom", async () => {
    throw new Error("connection to db-internal-7 failed: password authentication failed");
  });
  await t.app.ready();
});
afterAll(() => t.close());

describe("health", () => {
  it("reports the database as up", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("ok");
    expect(body.database).toMatchObject({ status: "up", kind: testDbKind });
    expect(typeof body.database.latency_ms).toBe("number");
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    // A check that shares the last one's probe gives the same answer.
    const again = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(again.json()).toMatchObject({ database: body.database, version: body.version });
    expect(again.json().uptime_s).toBeGreaterThanOrEqual(body.uptime_s);
  });

  it("answers liveness without touching a dependency, and readiness from the database", async () => {
    const live = await t.app.inject({ method: "GET", url: "/api/health/live" });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok", uptime_s: expect.any(Number) });
    const ready = await t.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      ready: true,
      draining: false,
      status: "ok",
      database: { status: "up", kind: testDbKind },
    });
    expect(ready.headers["cache-control"]).toBe("no-store");
    t.app.lifecycle.draining = true;
    try {
      const draining = await t.app.inject({ method: "GET", url: "/api/health/ready" });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toMatchObject({ ready: false, draining: true });
      // Still alive: a load balancer must not restart an instance that drains.
      expect((await t.app.inject({ method: "GET", url: "/api/health/live" })).statusCode).toBe(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
  });
});

describe("request ids", () => {
  it("generates one when absent and echoes it", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a well-formed incoming id and puts it in every log line of the request", async () => {
    logLines.length = 0;
    const response = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "req-abc.123" },
    });
    expect(response.headers["x-request-id"]).toBe("req-abc.123");
    const lines = logLines.filter((l) => l.reqId === "req-abc.123");
    expect(lines.map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
  });

  it("replaces a malformed incoming id", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "<script>alert(1)</script>" },
    });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("error shape", () => {
  it("answers unknown /api paths with a JSON 404", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/no/such/thing?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: "not_found", message: "No API route matches GET /api/no/such/thing." },
    });
  });

  it("answers malformed JSON with 400", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/__test/echo", "{ not json", {
      headers: { "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("invalid_json");
  });

  it("answers bodies over 1 MB with 413", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/__test/echo", { name: "x".repeat(1_100_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe("payload_too_large");
  });

  it("answers validation failures with 400 naming the failing fields", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/__test/echo", { name: "", count: 1.5 });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe("validation_failed");
    const paths = error.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["name", "count"]));
  });

  it("accepts a valid body", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/__test/echo", { name: "Ada" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { name: "Ada" } });
  });

  it("never leaks internals on a 5xx, and logs it with the request id", async () => {
    logLines.length = 0;
    const response = await t.app.inject({ method: "GET", url: "/api/__test/boom" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: {
        code: "internal_error",
        message: "Something went wrong on our side. Please try again.",
      },
    });
    expect(response.body).not.toContain("db-internal-7");
    const logged = logLines.find((l) => l.level === 50);
    expect(logged?.reqId).toBe(response.headers["x-request-id"]);
  });
});

describe("CSRF", () => {
  it("hands out a token and sets its secret cookie", async () => {
    const client = new TestClient(t.app);
    const response = await client.get("/api/csrf-token");
    expect(response.statusCode).toBe(200);
    expect(response.json().csrfToken).toEqual(expect.any(String));
    const cookie = response.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
  });

  it("gives a page's document the secret, so tokens its first requests fetch at once all work", async () => {
    const page = await t.app.inject({
      method: "GET",
      url: "/chat",
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    const secret = page.cookies.find((c) => c.name === CSRF_COOKIE)?.value;
    expect(secret).toEqual(expect.any(String));
    const cookie = `${CSRF_COOKIE}=${secret}`;
    // The API client's and telemetry's first token requests, sent at once by the page.
    const tokens = await Promise.all(
      [1, 2].map(async () => {
        const answer = await t.app.inject({
          method: "GET",
          url: "/api/csrf-token",
          headers: { cookie },
        });
        expect(answer.cookies.find((c) => c.name === CSRF_COOKIE)).toBeUndefined();
        return answer.json().csrfToken as string;
      }),
    );
    for (const token of tokens) {
      const echo = await t.app.inject({
        method: "POST",
        url: "/api/__test/echo",
        headers: { cookie, "x-csrf-token": token },
        payload: { name: "Ada" },
      });
      expect(echo.statusCode).toBe(200);
    }
    // An API call or an asset without the cookie is not given one.
    const api = await t.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { accept: "text/html" },
    });
    expect(api.cookies.find((c) => c.name === CSRF_COOKIE)).toBeUndefined();
  });

  it("refuses a mutating call without a token with 403 and a message naming CSRF", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/__test/echo", { name: "Ada" }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("csrf_invalid");
    expect(response.json().error.message).toContain("CSRF");
  });

  it("refuses a token issued to another browser", async () => {
    const alice = new TestClient(t.app);
    const mallory = new TestClient(t.app);
    const token = await mallory.fetchCsrf();
    await alice.fetchCsrf();
    alice.csrfToken = token;
    const response = await alice.post("/api/__test/echo", { name: "Ada" });
    expect(response.statusCode).toBe(403);
  });

  it("refuses a forged token and a stale one", async () => {
    const client = new TestClient(t.app);
    await client.fetchCsrf();
    const secret = client.cookies.get(CSRF_COOKIE) as string;
    client.csrfToken = issueCsrfToken(
      "some-other-key-of-the-attacker-000000000",
      secret,
      Date.now(),
    );
    expect((await client.post("/api/__test/echo", { name: "Ada" })).statusCode).toBe(403);
    client.csrfToken = issueCsrfToken(TEST_COOKIE_SECRET, secret, Date.now() - 25 * 3600_000);
    expect((await client.post("/api/__test/echo", { name: "Ada" })).statusCode).toBe(403);
    client.csrfToken = issueCsrfToken(TEST_COOKIE_SECRET, secret, Date.now());
    expect((await client.post("/api/__test/echo", { name: "Ada" })).statusCode).toBe(200);
  });

  it("exempts calls authenticated with a Bearer token", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/__test/echo",
      headers: { authorization: "Bearer abc123" },
      payload: { name: "Ada" },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe("security headers", () => {
  it("sends a Content-Security-Policy that allows only our own scripts", async () => {
    const response = await t.app.inject({ method: "GET", url: "/" });
    const csp = response.headers["content-security-policy"] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("OpenAPI", () => {
  it("documents the routes from their schemas", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/csrf-token"]),
    );
    expect(doc.paths["/api/csrf-token"].get.responses["200"]).toBeDefined();
  });

  it("serves the docs UI", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
  });
});

describe("the web app", () => {
  it.each([
    "/",
    "/pricing",
    "/login",
    "/chat",
    "/chat/abc",
    "/use-cases/finance",
    "/api",
    "/admin/login",
  ])("answers the app route %s with 200 and the SPA", async (url) => {
    const response = await t.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain('<div id="root">');
    expect(response.body).not.toContain("noindex");
  });

  it.each(["/no-such-page", "/use-cases/astrology", "/chat/a/b", "/dashboard/extra"])(
    "answers %s with 404, the SPA and noindex",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
      expect(response.headers["x-robots-tag"]).toBe("noindex");
      expect(response.body).toContain('<meta name="robots" content="noindex" />');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it.each(["/blog/", "/assets/", "//index.html"])(
    "answers the folder or odd path %s from the app's routes, not as a file",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toContain('<div id="root">');
    },
  );

  it("serves hashed assets with long-lived caching", async () => {
    const response = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toContain("immutable");
  });
});

describe("a failing dependency", () => {
  it("reports the database down with 503", async () => {
    const broken = await createTestApp();
    await broken.app.ready();
    expectConsoleError(0);
    await broken.db.close();
    const response = await broken.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: "degraded", database: { status: "down" } });
    await broken.app.close();
  });

  it("answers from the last round trip while the next one runs, and from that one within the second", async () => {
    const broken = await createTestApp();
    await broken.app.ready();
    expectConsoleError(0);
    // Only the clock the health check reads is moved; every timer stays real.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const check = () => broken.app.inject({ method: "GET", url: "/api/health" });
      const first = await check();
      expect(first.statusCode).toBe(200);
      const t0 = Date.now();
      await broken.db.close();
      vi.setSystemTime(t0 + 100);
      // The same answer; only the uptime may have rounded up a second meanwhile.
      const { uptime_s: _then, ...answered } = first.json();
      const { uptime_s: _now, ...again } = (await check()).json();
      expect(again).toEqual(answered);
      // 500 ms old: answered from it at once, while a new round trip finds the database down.
      vi.setSystemTime(t0 + 500);
      expect((await check()).json()).toMatchObject({ status: "ok", database: { status: "up" } });
      // Over a second after the first round trip: never answered from it again.
      vi.setSystemTime(t0 + 1100);
      const later = await check();
      expect(later.statusCode).toBe(503);
      expect(later.json()).toMatchObject({ status: "degraded", database: { status: "down" } });
    } finally {
      vi.useRealTimers();
    }
    await broken.app.close();
  });
});

// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { MemoryStorage } from "../../test-support/memory-storage";
import { ApiError, FRIENDLY_MESSAGES } from "./api-error";
import { type ApiClientDeps, buildApiUrl, createApiClient, parseRetryAfter } from "./client";
import { shouldRetryQuery } from "./query-client";

interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | undefined;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return json(status, { error: { code, message } }, headers);
}

class ManualClock {
  time = 1_000_000;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  };
  advance(ms: number) {
    this.time += ms;
    const due = this.timers.filter((timer) => timer.at <= this.time);
    this.timers = this.timers.filter((timer) => timer.at > this.time);
    for (const timer of due) timer.callback();
  }
  get pendingDelays(): number[] {
    return this.timers.map((timer) => timer.at - this.time);
  }
}

function setup(options: { path?: string; handlers?: Handler[] } = {}) {
  const calls: RecordedCall[] = [];
  const queue = [...(options.handlers ?? [])];
  const clock = new ManualClock();
  const session = new MemoryStorage();
  const local = new MemoryStorage();
  const redirects: string[] = [];
  const navigation = { path: options.path ?? "/dashboard" };
  const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const onUnauthorized = vi.fn();
  let idCounter = 0;

  const fetchImpl = vi.fn(async (url: string, init: RequestInit) => {
    const call: RecordedCall = {
      url,
      method: init.method ?? "GET",
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
      signal: init.signal ?? undefined,
    };
    calls.push(call);
    const handler = queue.shift();
    if (!handler) throw new Error(`unexpected request ${call.method} ${url}`);
    return handler(call);
  });

  const deps: ApiClientDeps = {
    fetch: fetchImpl,
    clock,
    navigation: {
      currentPath: () => navigation.path,
      redirect: (path) => redirects.push(path),
    },
    sessionStorage: session,
    localStorage: local,
    logger,
    randomId: () => `req-${++idCounter}`,
    onUnauthorized,
  };

  return {
    calls,
    queue,
    clock,
    session,
    local,
    redirects,
    navigation,
    logger,
    onUnauthorized,
    deps,
    create: () => createApiClient(deps),
  };
}

const csrfOk =
  (token: string): Handler =>
  () =>
    json(200, { csrfToken: token });
const ok =
  (body: unknown = { ok: true }): Handler =>
  () =>
    json(200, body);

/** A call that never answers; the fetch rejects as the browser's does when it is aborted. */
const answerOnlyAbort: Handler = (call) =>
  new Promise<Response>((_resolve, reject) => {
    call.signal?.addEventListener("abort", () =>
      reject(new DOMException("The operation was aborted.", "AbortError")),
    );
  });

/** One call that takes `ms` on the test's clock and answers 200 with an empty list. */
function setupCallTaking(ms: number) {
  const t = setup({
    handlers: [
      () => {
        t.clock.time += ms;
        return json(200, []);
      },
    ],
  });
  return t;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to reject");
}

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("request basics", () => {
  it("calls /api with cookies, JSON headers and a fresh request id per call", async () => {
    const t = setup({ handlers: [ok({ status: "ok" }), ok({ status: "ok" })] });
    const client = t.create();

    await expect(client.get("/health")).resolves.toEqual({ status: "ok" });
    await client.get("health", {
      query: { role: "coder", includeExternal: true, skip: undefined },
    });

    expect(t.calls[0]?.url).toBe("/api/health");
    expect(t.calls[1]?.url).toBe("/api/health?role=coder&includeExternal=true");
    for (const call of t.calls) {
      expect(call.credentials).toBe("include");
      expect(call.headers["Content-Type"]).toBe("application/json");
      expect(call.headers["x-csrf-token"]).toBeUndefined();
    }
    expect(t.calls.map((call) => call.headers["x-request-id"])).toEqual(["req-1", "req-2"]);
  });

  it("keeps paths that already name /api and resolves 204 to undefined", async () => {
    const t = setup({ handlers: [() => new Response(null, { status: 204 })] });
    await expect(t.create().get("/api/sessions")).resolves.toBeUndefined();
    expect(t.calls[0]?.url).toBe("/api/sessions");
    expect(buildApiUrl("/api")).toBe("/api");
  });

  it("validates the answer with a given schema and rejects a mismatch as invalid_response", async () => {
    const t = setup({ handlers: [ok({ csrfToken: 42 })] });
    const schema = {
      parse(data: unknown) {
        const token = (data as { csrfToken?: unknown }).csrfToken;
        if (typeof token !== "string") throw new Error("csrfToken must be a string");
        return { csrfToken: token };
      },
    };
    const error = await rejection(t.create().get("/csrf-token", { schema }));
    expect(error.code).toBe("invalid_response");
    expect(error.message).toBe(FRIENDLY_MESSAGES.invalidResponse);
  });
});

describe("CSRF", () => {
  it("fetches a token before the first mutation, caches it in memory and sessionStorage", async () => {
    const t = setup({ handlers: [csrfOk("tok-1"), ok(), ok()] });
    const client = t.create();

    await client.post("/sessions", { title: "Launch plan" });
    await client.put("/sessions/s1/status", { status: "archived" });

    expect(t.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET /api/csrf-token",
      "POST /api/sessions",
      "PUT /api/sessions/s1/status",
    ]);
    expect(t.calls[1]?.headers["x-csrf-token"]).toBe("tok-1");
    expect(t.calls[1]?.body).toEqual({ title: "Launch plan" });
    expect(t.calls[2]?.headers["x-csrf-token"]).toBe("tok-1");
    expect(t.session.getItem("csrfToken")).toBe("tok-1");
  });

  it("uses a token already in sessionStorage without asking for one", async () => {
    const t = setup({ handlers: [ok()] });
    t.session.setItem("csrfToken", "stored");
    await t.create().delete("/sessions/s1");
    expect(t.calls).toHaveLength(1);
    expect(t.calls[0]?.headers["x-csrf-token"]).toBe("stored");
  });

  it("asks for the token once when several mutations start together", async () => {
    const t = setup({ handlers: [csrfOk("shared"), ok(), ok(), ok()] });
    const client = t.create();
    await Promise.all([client.post("/a"), client.patch("/b"), client.delete("/c")]);
    const tokenCalls = t.calls.filter((call) => call.url === "/api/csrf-token");
    expect(tokenCalls).toHaveLength(1);
    expect(t.calls.filter((call) => call.headers["x-csrf-token"] === "shared")).toHaveLength(3);
  });

  it("on 403 csrf_invalid drops the token, fetches a fresh one and retries once", async () => {
    const t = setup({
      handlers: [
        () => apiError(403, "csrf_invalid", "Invalid CSRF token"),
        csrfOk("fresh"),
        ok({ id: 7 }),
      ],
    });
    t.session.setItem("csrfToken", "stale");
    await expect(t.create().post("/sessions", {})).resolves.toEqual({ id: 7 });
    expect(t.calls.map((call) => call.headers["x-csrf-token"] ?? call.url)).toEqual([
      "stale",
      "/api/csrf-token",
      "fresh",
    ]);
    expect(t.session.getItem("csrfToken")).toBe("fresh");
  });

  it("treats any 403 whose message mentions CSRF the same way", async () => {
    const t = setup({
      handlers: [() => apiError(403, "forbidden", "Missing CSRF header"), csrfOk("fresh"), ok()],
    });
    t.session.setItem("csrfToken", "stale");
    await t.create().post("/billing/purchase-credits", { packageId: "p1" });
    expect(t.calls).toHaveLength(3);
  });

  it("retries only once: a second CSRF refusal rejects", async () => {
    const t = setup({
      handlers: [
        () => apiError(403, "csrf_invalid", "Invalid CSRF token"),
        csrfOk("fresh"),
        () => apiError(403, "csrf_invalid", "Invalid CSRF token"),
      ],
    });
    t.session.setItem("csrfToken", "stale");
    const error = await rejection(t.create().post("/sessions", {}));
    expect(error.status).toBe(403);
    expect(error.code).toBe("csrf_invalid");
    expect(t.calls).toHaveLength(3);
  });

  it("does not retry a 403 that is not about CSRF, and shows the server's message", async () => {
    const t = setup({
      handlers: [() => apiError(403, "cochat_locked", "CoChat is available on Pro and above.")],
    });
    t.session.setItem("csrfToken", "tok");
    const error = await rejection(t.create().post("/cochat/chat", {}));
    expect(error).toMatchObject({ status: 403, code: "cochat_locked" });
    expect(error.message).toBe("CoChat is available on Pro and above.");
    expect(t.calls).toHaveLength(1);
  });
});

describe("401 policy", () => {
  it("clears the stored profile and redirects to /login at most once every 3 s", async () => {
    const unauthorized = () => apiError(401, "unauthorized", "Not signed in");
    const t = setup({ handlers: [unauthorized, unauthorized, unauthorized] });
    t.local.setItem("userProfile", '{"id":"u1"}');
    t.session.setItem("userProfile", '{"id":"u1"}');
    const client = t.create();

    const first = await rejection(client.get("/users/profile"));
    expect(first).toMatchObject({ status: 401, code: "unauthorized", message: "Not signed in" });
    expect(t.redirects).toEqual(["/login"]);
    expect(t.local.getItem("userProfile")).toBeNull();
    expect(t.session.getItem("userProfile")).toBeNull();
    expect(t.onUnauthorized).toHaveBeenCalledTimes(1);

    t.clock.advance(2_999);
    await rejection(client.get("/users/usage"));
    expect(t.redirects).toEqual(["/login"]);

    t.clock.advance(1);
    await rejection(client.get("/users/usage"));
    expect(t.redirects).toEqual(["/login", "/login"]);
  });

  it("leaves storage untouched when no profile is stored", async () => {
    const t = setup({ handlers: [() => apiError(401, "unauthorized", "Not signed in")] });
    await rejection(t.create().get("/users/profile"));
    expect(t.local.removed).toEqual([]);
    expect(t.session.removed).toEqual([]);
    expect(t.redirects).toEqual(["/login"]);
  });

  it("lets an auth probe take its 401 as an answer: profile cleared, no redirect", async () => {
    const t = setup({ handlers: [() => apiError(401, "unauthorized", "Not signed in")] });
    t.local.setItem("userProfile", '{"id":"u1"}');
    await rejection(t.create().get("/users/profile", { redirectOnUnauthorized: false }));
    expect(t.redirects).toEqual([]);
    expect(t.local.getItem("userProfile")).toBeNull();
    expect(t.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it.each(["/login", "/signup", "/forgot-password", "/reset-password", "/verify-email"])(
    "does nothing on the %s page",
    async (path) => {
      const t = setup({ path, handlers: [() => apiError(401, "unauthorized", "Not signed in")] });
      t.local.setItem("userProfile", "{}");
      await rejection(t.create().get("/users/profile"));
      expect(t.redirects).toEqual([]);
      expect(t.local.getItem("userProfile")).toBe("{}");
    },
  );

  it.each(["/user-auth/login", "/auth/register"])(
    "does nothing for the auth URL %s",
    async (path) => {
      const t = setup({
        handlers: [csrfOk("tok"), () => apiError(401, "unauthorized", "Wrong email or password")],
      });
      const error = await rejection(t.create().post(path, { email: "a@b.c" }));
      expect(error.message).toBe("Wrong email or password");
      expect(t.redirects).toEqual([]);
    },
  );
});

describe("429, 5xx, network, time-out", () => {
  it("rejects a 429 with Retry-After seconds and logs a warning", async () => {
    const t = setup({
      handlers: [() => apiError(429, "rate_limited", "Too many requests", { "retry-after": "17" })],
    });
    const error = await rejection(t.create().get("/ai/models"));
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 17 });
    expect(t.logger.warn).toHaveBeenCalledWith(
      "Rate limited",
      expect.objectContaining({ retryAfterSeconds: 17 }),
    );
    expect(t.logger.error).not.toHaveBeenCalled();
  });

  it("defaults Retry-After to 60 s and writes a friendly message when the body is empty", async () => {
    const t = setup({ handlers: [() => new Response("", { status: 429 })] });
    const error = await rejection(t.create().get("/ai/agent-roles"));
    expect(error.retryAfterSeconds).toBe(60);
    expect(error.code).toBe("rate_limited");
    expect(error.message).toBe(FRIENDLY_MESSAGES.rateLimited(60));
  });

  it("reads Retry-After given as an HTTP date", () => {
    const now = Date.parse("2026-11-22T08:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 08:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("soon", now)).toBe(60);
  });

  it("logs a 5xx as a server error and hides the server's text", async () => {
    const t = setup({
      handlers: [
        () =>
          apiError(500, "internal_error", "db pool exhausted at pg.js:42", {
            "x-request-id": "srv-9",
          }),
      ],
    });
    const error = await rejection(t.create().get("/sessions"));
    expect(error).toMatchObject({ status: 500, code: "internal_error", requestId: "srv-9" });
    expect(error.message).toBe(FRIENDLY_MESSAGES.server);
    expect(t.logger.error).toHaveBeenCalledWith(
      "Server error",
      expect.objectContaining({ status: 500, requestId: "srv-9" }),
    );
  });

  it("turns a network failure into network_error", async () => {
    const t = setup({
      handlers: [
        () => {
          throw new TypeError("Failed to fetch");
        },
      ],
    });
    const error = await rejection(t.create().get("/sessions"));
    expect(error).toMatchObject({ status: 0, code: "network_error", requestId: "req-1" });
    expect(error.message).toBe(FRIENDLY_MESSAGES.network);
    expect(t.logger.error).toHaveBeenCalledTimes(1);
  });

  it("aborts after 30 s and rejects with a timeout error", async () => {
    const t = setup({
      handlers: [answerOnlyAbort],
    });
    const pending = rejection(t.create().get("/sessions"));
    await flush();
    expect(t.clock.pendingDelays).toEqual([30_000]);
    t.clock.advance(29_999);
    await flush();
    expect(t.calls[0]?.signal?.aborted).toBe(false);
    t.clock.advance(1);
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isTimeout).toBe(true);
    expect(error.status).toBe(0);
    expect(error.message).toBe(FRIENDLY_MESSAGES.timeout);
  });

  it("honours a longer per-call time-out", async () => {
    let delaysDuringCall: number[] = [];
    const t = setup({
      handlers: [
        () => {
          delaysDuringCall = t.clock.pendingDelays;
          return json(200, { reply: "hi" });
        },
      ],
    });
    t.session.setItem("csrfToken", "tok");
    await t.create().post("/cochat/chat", {}, { timeoutMs: 180_000 });
    expect(delaysDuringCall).toEqual([180_000]);
    expect(t.clock.pendingDelays).toEqual([]);
  });

  it("reports a caller's cancel as request_aborted without logging an error", async () => {
    const t = setup({
      handlers: [answerOnlyAbort],
    });
    const controller = new AbortController();
    const pending = rejection(t.create().get("/sessions", { signal: controller.signal }));
    await flush();
    controller.abort();
    const error = await pending;
    expect(error.isAborted).toBe(true);
    expect(t.logger.error).not.toHaveBeenCalled();
  });

  it("warns about a call slower than 1000 ms", async () => {
    const t = setupCallTaking(1_001);
    await t.create().get("/sessions");
    expect(t.logger.warn).toHaveBeenCalledWith(
      "Slow API request",
      expect.objectContaining({ durationMs: 1_001, url: "/api/sessions" }),
    );
  });

  it("does not warn about a call of exactly 1000 ms", async () => {
    const t = setupCallTaking(1_000);
    await t.create().get("/sessions");
    expect(t.logger.warn).not.toHaveBeenCalled();
  });
});

describe("query retry policy", () => {
  const make = (status: number, code: string) =>
    new ApiError({ status, code, message: "x", requestId: "r" });

  it("never retries 4xx, time-outs or cancels", () => {
    expect(shouldRetryQuery(0, make(404, "not_found"))).toBe(false);
    expect(shouldRetryQuery(0, make(429, "rate_limited"))).toBe(false);
    expect(shouldRetryQuery(0, make(0, "timeout"))).toBe(false);
    expect(shouldRetryQuery(0, make(0, "request_aborted"))).toBe(false);
  });

  it("retries 5xx and network failures twice", () => {
    expect(shouldRetryQuery(0, make(503, "service_unavailable"))).toBe(true);
    expect(shouldRetryQuery(1, make(0, "network_error"))).toBe(true);
    expect(shouldRetryQuery(2, make(0, "network_error"))).toBe(false);
  });
});

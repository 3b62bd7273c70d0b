import { Writable } from "node:stream";
import {
  LOG_BATCH_MAX_ENTRIES,
  REQUEST_ID_HEADER,
  type TClientLogEntry,
  type TPageView,
  ZLogEntriesQuery,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import type { Db } from "../src/db/client";
import { getRequestTrail } from "../src/modules/telemetry/get-request-trail";
import { listLogEntries } from "../src/modules/telemetry/list-log-entries";
import { summarizeAnalytics } from "../src/modules/telemetry/summarize-analytics";
import { sweepExpiredTelemetry } from "../src/modules/telemetry/sweep-expired-telemetry";
import { signUp } from "./support/accounts";
import { createTestApp, createTestDb, type TestApp, testConfig } from "./support/app";
import { TestClient } from "./support/client";
import { eventually } from "./support/wait";

/**
 * Client telemetry end to end through HTTP: POST /api/logs and /api/analytics/*, validated,
 * capped, rate-limited, redacted, written in batches, read back by the admin's read functions.
 */

const silent = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/**
 * The queue flushes every 20 ms here; a test polls (`eventually`) until it has written what it
 * wants. Wait on the entries read, not the total: the page and the count are two statements,
 * and on PostgreSQL a flush can land between them.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    {
      LOG_LEVEL: "warn",
      TELEMETRY_FLUSH_INTERVAL_MS: "20",
      TELEMETRY_LOGS_PER_MINUTE: "5",
      TELEMETRY_ANALYTICS_PER_MINUTE: "1000",
    },
    { logStream: silent() },
  );
  t.app.get("/api/test-telemetry/fail", async () => {
    throw new Error("boom in a handler");
  });
  await t.app.ready();
});

afterAll(async () => {
  await t?.close();
});

function entry(overrides: Partial<TClientLogEntry> = {}): TClientLogEntry {
  return {
    timestamp: new Date().toISOString(),
    level: "error",
    message: "Request failed",
    url: "https://app.test/chat?token=abc",
    userAgent: "test-agent",
    sessionId: "session-1",
    ...overrides,
  };
}

function pageView(sessionId: string, overrides: Partial<TPageView> = {}): TPageView {
  return {
    sessionId,
    pagePath: "/",
    pageTitle: "Cohort",
    referrer: "https://news.example.org/item?id=1",
    utmParams: { source: "newsletter", medium: "email" },
    deviceInfo: { userAgent: "test-agent", language: "en", deviceType: "desktop" },
    screenInfo: { width: 1280, height: 800, pixelRatio: 2 },
    ...overrides,
  };
}

async function storedLogs(db: Db, userId: string) {
  return listLogEntries(db, ZLogEntriesQuery.parse({ userId }));
}

describe("POST /api/logs", () => {
  it("needs a signed-in user", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/logs", { logs: [entry()] });
    expect(response.statusCode).toBe(401);
  });

  it("refuses a cookie call without the CSRF token", async () => {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/logs", { logs: [entry()] }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain("CSRF");
  });

  it("stores a batch for the session's user, redacted again, with a truncated address", async () => {
    const { client, user } = await signUp(t.app);
    const response = await client.post(
      "/api/logs",
      {
        logs: [
          entry({
            userId: "someone-else",
            requestId: "req-client-1",
            data: { status: 500, nested: { password: "hunter2", list: [{ apiKey: "sk-1" }] } },
          }),
          entry({ level: "info", message: "Page shown" }),
        ],
      },
      { headers: { "x-forwarded-for": "203.0.113.77" } },
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: 2 });

    const page = await eventually(
      () => storedLogs(t.db, user.id),
      (p) => p.entries.length === 2,
    );
    expect(page.entries.map((e) => e.message).sort()).toEqual(["Page shown", "Request failed"]);
    const failed = page.entries.find((e) => e.level === "error");
    expect(failed).toMatchObject({
      source: "client",
      userId: user.id,
      sessionId: "session-1",
      requestId: "req-client-1",
      url: "https://app.test/chat?token=%5BREDACTED%5D",
      data: { status: 500, nested: { password: "[REDACTED]", list: [{ apiKey: "[REDACTED]" }] } },
    });
    // Whatever address the app saw, only its network is kept.
    expect(failed?.ip).toMatch(/\/(24|48)$/);
  });

  it("answers 400 to bad, oversized and too-large batches and stores none of them", async () => {
    const { client, user } = await signUp(t.app);
    const bad = await client.post("/api/logs", { logs: [{ message: "no level" }] });
    expect(bad.statusCode).toBe(400);
    const empty = await client.post("/api/logs", { logs: [] });
    expect(empty.statusCode).toBe(400);
    const tooMany = await client.post("/api/logs", {
      logs: Array.from({ length: LOG_BATCH_MAX_ENTRIES + 1 }, () => entry()),
    });
    expect(tooMany.statusCode).toBe(400);
    const oversized = await client.post("/api/logs", {
      logs: [entry({ data: { blob: "x".repeat(9_000) } })],
    });
    expect(oversized.statusCode).toBe(400);

    // A valid batch afterwards is stored, and only it.
    const ok = await client.post("/api/logs", { logs: [entry({ message: "after" })] });
    expect(ok.statusCode).toBe(202);
    const page = await eventually(
      () => storedLogs(t.db, user.id),
      (p) => p.entries.length >= 1,
    );
    expect(page.entries.map((e) => e.message)).toEqual(["after"]);
  });

  it("refuses a NUL character at any depth of an entry with 400, and keeps an escaped backslash", async () => {
    const { client, user } = await signUp(t.app);
    const nul = await client.post("/api/logs", {
      logs: [entry({ message: "clean" }), entry({ data: { deep: [{ note: "a\u0000b" }] } })],
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.message).toContain("logs.1.data.deep.0.note");
    // The text `\u0000` (a backslash, then u0000) is no NUL: it is stored as it was sent.
    const text = await client.post("/api/logs", {
      logs: [entry({ message: "backslash", data: { note: "C:\\u0000" } })],
    });
    expect(text.statusCode).toBe(202);
    const page = await eventually(
      () => storedLogs(t.db, user.id),
      (p) => p.entries.length >= 1,
    );
    expect(page.entries.map((e) => [e.message, e.data])).toEqual([
      ["backslash", { note: "C:\\u0000" }],
    ]);
  });

  it("answers 413 to a body over the route's size cap", async () => {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/logs", {
      logs: [entry({ data: { blob: "x".repeat(1_000_000) } })],
    });
    expect(response.statusCode).toBe(413);
  });

  it("limits each user's batches per minute", async () => {
    const { client } = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await client.post("/api/logs", { logs: [entry()] })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses[5]).toBe(429);
    // Another user has a budget of their own.
    const other = await signUp(t.app);
    expect((await other.client.post("/api/logs", { logs: [entry()] })).statusCode).toBe(202);
  });
});

describe("a request's trail", () => {
  it("joins the browser's entries and the server's error line by request id", async () => {
    const { client, user } = await signUp(t.app);
    const failed = await client.get("/api/test-telemetry/fail");
    expect(failed.statusCode).toBe(500);
    const requestId = String(failed.headers[REQUEST_ID_HEADER]);

    await client.post("/api/logs", {
      logs: [entry({ requestId, message: "Server error", data: { status: 500 } })],
    });
    const trail = await eventually(
      () => getRequestTrail(t.db, requestId),
      (found) => found.entries.length >= 2,
    );
    expect(trail.entries.map((e) => e.source).sort()).toEqual(["client", "server"]);
    expect(trail.entries.find((e) => e.source === "client")?.userId).toBe(user.id);
    expect(trail.entries.find((e) => e.source === "server")?.level).toBe("error");
  });
});

describe("POST /api/analytics/*", () => {
  it("accepts anonymous page views, one or a batch, and never trusts the payload's user", async () => {
    const client = new TestClient(t.app);
    const one = await client.post("/api/analytics/pageview", pageView("anon-1", { userId: "u" }));
    expect(one.statusCode).toBe(202);
    const many = await client.post("/api/analytics/pageview", [
      pageView("anon-1", { pagePath: "/pricing" }),
      pageView("anon-1", { pagePath: "/features" }),
    ]);
    expect(many.json()).toEqual({ accepted: 2 });
    const rows = await eventually(
      () =>
        t.db.query<{ page_path: string; user_id: string | null; ip: string | null }>(
          "SELECT page_path, user_id, ip FROM analytics_page_views WHERE analytics_session_id = 'anon-1'",
        ),
      (r) => r.rows.length === 3,
    );
    expect(rows.rows.map((r) => r.page_path).sort()).toEqual(["/", "/features", "/pricing"]);
    expect(rows.rows.every((r) => r.user_id === null)).toBe(true);
  });

  it("answers 400 to a bad page view and stores nothing", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/analytics/pageview", {
      ...pageView("anon-bad"),
      screenInfo: { width: "wide" },
    });
    expect(response.statusCode).toBe(400);
    const oversized = await client.post("/api/analytics/event", {
      sessionId: "anon-bad",
      category: "Performance",
      action: "LCP",
      properties: { blob: "x".repeat(9_000) },
    });
    expect(oversized.statusCode).toBe(400);
    await client.post("/api/analytics/pageview", pageView("anon-bad-later"));
    await eventually(
      () =>
        t.db.query(
          "SELECT 1 FROM analytics_page_views WHERE analytics_session_id = 'anon-bad-later'",
        ),
      (r) => r.rows.length === 1,
    );
    const stored = await t.db.query(
      "SELECT 1 FROM analytics_page_views WHERE analytics_session_id = 'anon-bad'",
    );
    expect(stored.rows).toHaveLength(0);
  });

  it("drops everything from a browser sending Do Not Track or Global Privacy Control", async () => {
    const client = new TestClient(t.app);
    const signals: Record<string, string>[] = [{ dnt: "1" }, { "sec-gpc": "1" }];
    for (const headers of signals) {
      const response = await client.post("/api/analytics/pageview", pageView("dnt-1"), {
        headers,
      });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ accepted: 0 });
    }
  });

  it("drops a signed-in user's analytics after they opt out in Settings", async () => {
    const { client, user } = await signUp(t.app);
    expect((await client.get("/api/telemetry/preferences")).json()).toEqual({
      analyticsOptOut: false,
    });
    const before = await client.post("/api/analytics/event", {
      sessionId: "opt-1",
      category: "Funnel",
      action: "first_run",
    });
    expect(before.json()).toEqual({ accepted: 1 });

    const put = await client.put("/api/telemetry/preferences", { analyticsOptOut: true });
    expect(put.json()).toEqual({ analyticsOptOut: true });
    const after = await client.post("/api/analytics/event", {
      sessionId: "opt-1",
      category: "Funnel",
      action: "purchase",
    });
    expect(after.json()).toEqual({ accepted: 0 });

    const rows = await eventually(
      () =>
        t.db.query<{ action: string; user_id: string }>(
          "SELECT action, user_id::text AS user_id FROM analytics_events WHERE analytics_session_id = 'opt-1'",
        ),
      (r) => r.rows.length >= 1,
    );
    expect(rows.rows).toEqual([{ action: "first_run", user_id: user.id }]);
  });

  it("feeds the admin's summary: pages, referrers, UTM sources, funnel and web vitals p75", async () => {
    const visitor = new TestClient(t.app);
    await visitor.post("/api/analytics/pageview", [
      pageView("funnel-1"),
      pageView("funnel-1", { pagePath: "/pricing", utmParams: {} }),
    ]);
    const { client } = await signUp(t.app);
    await client.post("/api/analytics/pageview", pageView("funnel-2"));
    await client.post("/api/analytics/event", [
      { sessionId: "funnel-2", category: "Funnel", action: "sign_up" },
      { sessionId: "funnel-2", category: "Funnel", action: "first_run" },
    ]);
    for (const [lcp, inp] of [
      [1000, 80],
      [2000, 120],
      [3000, 200],
      [4000, 40],
    ]) {
      await client.post("/api/analytics/performance", {
        sessionId: "funnel-2",
        pagePath: "/vitals-page",
        lcp,
        inp,
        cls: 0.01,
      });
    }
    const end = await client.post("/api/analytics/session-end", {
      sessionId: "funnel-2",
      duration: 95,
    });
    expect(end.statusCode).toBe(202);

    const summary = await eventually(
      () => summarizeAnalytics(t.db, { limit: 10 }),
      (s) => s.webVitals.some((v) => v.pagePath === "/vitals-page" && v.samples === 4),
    );
    expect(summary.topPages.find((p) => p.key === "/pricing")?.count).toBeGreaterThanOrEqual(1);
    expect(summary.referrers.find((r) => r.key === "news.example.org")?.count).toBeGreaterThan(0);
    expect(summary.utmSources.find((u) => u.key === "newsletter")?.count).toBeGreaterThan(0);
    const funnel = Object.fromEntries(summary.funnel.map((s) => [s.step, s.count]));
    expect(funnel.landing).toBeGreaterThanOrEqual(2);
    expect(funnel.sign_up).toBeGreaterThanOrEqual(1);
    expect(funnel.first_run).toBeGreaterThanOrEqual(1);
    expect(funnel.purchase).toBe(0);
    const vitals = summary.webVitals.find((v) => v.pagePath === "/vitals-page");
    // percentile_cont(0.75) over 1000..4000 is 3250; FID is absent, INP recorded as such.
    expect(vitals).toMatchObject({ lcp: 3250, fid: null, inp: 140, cls: 0.01 });
    const ends = await eventually(
      () =>
        t.db.query<{ duration_seconds: number }>(
          "SELECT duration_seconds FROM analytics_session_ends WHERE analytics_session_id = 'funnel-2'",
        ),
      (r) => r.rows.length === 1,
    );
    expect(ends.rows[0]?.duration_seconds).toBe(95);
  });
});

describe("storage", () => {
  it("writes every accepted entry before a graceful shutdown completes", async () => {
    const testDb = await createTestDb();
    try {
      // A flush interval longer than the test: only the shutdown flush can write these.
      const app = await buildApp(testConfig({ TELEMETRY_FLUSH_INTERVAL_MS: "60000" }), {
        db: testDb.db,
      });
      const { client, user } = await signUp(app);
      const logs = Array.from({ length: 40 }, (_, i) => entry({ message: `line ${i}` }));
      expect((await client.post("/api/logs", { logs })).statusCode).toBe(202);
      await app.close();
      const stored = await storedLogs(testDb.db, user.id);
      expect(stored.total).toBe(40);
    } finally {
      await testDb.drop();
    }
  });

  it("writes batches larger than a chunk whole, in chunks of TELEMETRY_BATCH_SIZE", async () => {
    const testDb = await createTestDb();
    try {
      const app = await buildApp(testConfig({ TELEMETRY_BATCH_SIZE: "7" }), { db: testDb.db });
      const { client, user } = await signUp(app);
      const sizes = [40, 1, 12];
      for (const [n, size] of sizes.entries()) {
        const logs = Array.from({ length: size }, (_, i) => entry({ message: `b${n} line ${i}` }));
        expect((await client.post("/api/logs", { logs })).statusCode).toBe(202);
      }
      await app.close();
      const stored = await listLogEntries(
        testDb.db,
        ZLogEntriesQuery.parse({ userId: user.id, source: "client", pageSize: 200 }),
      );
      const expected = sizes.flatMap((size, n) =>
        Array.from({ length: size }, (_, i) => `b${n} line ${i}`),
      );
      expect(stored.entries.map((e) => e.message).sort()).toEqual(expected.sort());
    } finally {
      await testDb.drop();
    }
  });

  it("answers 503 with Retry-After when the write queue is full, and stores nothing of that batch", async () => {
    const testDb = await createTestDb();
    try {
      // Nothing is written before the shutdown: the queue fills at 100 rows.
      const app = await buildApp(
        testConfig({
          TELEMETRY_FLUSH_INTERVAL_MS: "60000",
          TELEMETRY_BATCH_SIZE: "10000",
          TELEMETRY_QUEUE_LIMIT: "100",
        }),
        { db: testDb.db, logStream: silent() },
      );
      const { client, user } = await signUp(app);
      const batch = (name: string, size: number) => ({
        logs: Array.from({ length: size }, (_, i) => entry({ message: `${name} ${i}` })),
      });
      expect((await client.post("/api/logs", batch("kept", 100))).statusCode).toBe(202);
      const refused = await client.post("/api/logs", batch("refused", 2));
      expect(refused.statusCode).toBe(503);
      expect(refused.headers["retry-after"]).toBe("1");
      expect(refused.json().error.code).toBe("service_unavailable");
      await app.close();
      const stored = await listLogEntries(
        testDb.db,
        ZLogEntriesQuery.parse({ userId: user.id, source: "client", pageSize: 200 }),
      );
      expect(stored.total).toBe(100);
      expect(stored.entries.some((e) => e.message.startsWith("refused"))).toBe(false);
    } finally {
      await testDb.drop();
    }
  });

  it("deletes entries older than the retention period", async () => {
    const { client, user } = await signUp(t.app);
    await client.post("/api/logs", { logs: [entry({ message: "fresh" })] });
    await eventually(
      () => storedLogs(t.db, user.id),
      (p) => p.entries.length === 1,
    );
    await t.db.query(
      `INSERT INTO telemetry_logs (source, level, message, user_id, logged_at, received_at)
       VALUES ('client', 'info', 'old', $1, now() - interval '40 days', now() - interval '40 days')`,
      [user.id],
    );
    await t.db.query(
      `INSERT INTO analytics_page_views (analytics_session_id, page_path, page_title, referrer,
         device_info, screen_info, created_at)
       VALUES ('old-visit', '/', 'Cohort', '', '{}', '{}', now() - interval '40 days')`,
    );
    const deleted = await sweepExpiredTelemetry(t.db, 30);
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect((await storedLogs(t.db, user.id)).entries.map((e) => e.message)).toEqual(["fresh"]);
    const oldVisit = await t.db.query(
      "SELECT 1 FROM analytics_page_views WHERE analytics_session_id = 'old-visit'",
    );
    expect(oldVisit.rows).toHaveLength(0);
  });
});

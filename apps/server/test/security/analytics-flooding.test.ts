import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { TestClient } from "../support/client";

/**
 * Advisory class: anonymous writes that fill the database. Fifty analytics events with 8 KB of
 * properties each, per request, no sign-in: about 250 MB a minute from one address, kept 30
 * days (decision 052, finding 7). Properties are capped (count, key and value size), anonymous
 * senders share a byte budget per address per UTC day, and what goes over it is dropped and
 * counted where the admin sees it (decision 052). The data model's own analytics payloads (no
 * session id, no page path on performance data) are taken as they are (decision 056).
 */

const ADMIN = {
  ADMIN_EMAIL: "analytics-admin@cohort.example",
  ADMIN_PASSWORD: "analytics-admin-pass-1",
};
/** Small, so a test fills it with a few requests. */
const BUDGET = 4096;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    ...ADMIN,
    TELEMETRY_FLUSH_INTERVAL_MS: "20",
    TELEMETRY_ANONYMOUS_BYTES_PER_DAY: String(BUDGET),
  });
});
afterAll(() => t.close());

const event = (properties: unknown) => ({
  sessionId: "s-1",
  category: "ui",
  action: "click",
  properties,
});

async function rows(sql: string, params: unknown[] = []) {
  await t.app.telemetry.flush();
  return (await t.db.query(sql, params)).rows;
}

describe("event properties are capped", () => {
  const client = () => new TestClient(t.app, "203.0.113.10");
  it.each([
    ["21 properties", Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i]))],
    ["a 41-character key", { ["k".repeat(41)]: 1 }],
    ["a 201-character value", { label: "v".repeat(201) }],
    ["a nested object", { nested: { deep: "x" } }],
    ["an array", { list: [1, 2, 3] }],
    ["an empty key", { "": 1 }],
  ])("refuses %s with 400 and stores nothing", async (_, properties) => {
    const response = await client().post("/api/analytics/event", event(properties));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("validation_failed");
  });

  it("takes 20 short properties of plain values", async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`key${i}`, i % 2 ? "v".repeat(200) : i]),
    );
    const response = await client().post("/api/analytics/event", event({ ...properties }));
    expect(response.json()).toEqual({ accepted: 1 });
  });
});

describe("anonymous ingestion per address per day", () => {
  it("drops what goes over the budget, counts it for the admin, and holds no one else back", async () => {
    const flooder = new TestClient(t.app, "198.51.100.7");
    const view = (n: number) => ({
      sessionId: "flood",
      pagePath: `/p/${n}`,
      pageTitle: "t".repeat(200),
      referrer: "",
      utmParams: {},
      deviceInfo: {},
      screenInfo: { width: 1, height: 1 },
    });
    const batch = (from: number) => Array.from({ length: 5 }, (_, i) => view(from + i));
    const bytes = (from: number) => Buffer.byteLength(JSON.stringify(batch(from)));
    // What the server counts is each batch's JSON: the first ones fit the budget, the rest
    // are dropped and answered alike (202, accepted 0).
    const expected: number[] = [];
    let used = 0;
    for (let i = 0; i < 6; i += 1) {
      const fits = used + bytes(i * 5) <= BUDGET;
      if (fits) used += bytes(i * 5);
      expected.push(fits ? 5 : 0);
    }
    expect(expected.slice(0, 2)).toEqual([5, 5]);
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await flooder.post("/api/analytics/pageview", batch(i * 5));
      expect(response.statusCode).toBe(202);
      answers.push(response.json().accepted);
    }
    expect(answers).toEqual(expected);
    const kept = expected.filter((n) => n > 0).length * 5;
    const stored = await rows(
      "SELECT count(*)::int AS n FROM analytics_page_views WHERE analytics_session_id = 'flood'",
    );
    expect(stored).toEqual([{ n: kept }]);

    // Another address, and a signed-in user at the flooder's own address, are still heard.
    const neighbour = new TestClient(t.app, "192.0.2.9");
    expect((await neighbour.post("/api/analytics/pageview", view(99))).json()).toEqual({
      accepted: 1,
    });
    const member = await signUp(new TestClient(t.app, "198.51.100.7"));
    expect((await member.client.post("/api/analytics/pageview", view(100))).json()).toEqual({
      accepted: 1,
    });

    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const overview = (await admin.get("/api/admin/overview")).json();
    const dropped = expected.flatMap((n, i) => (n === 0 ? [bytes(i * 5)] : []));
    expect(overview.analytics_dropped).toEqual({
      items: dropped.length * 5,
      bytes: dropped.reduce((a, b) => a + b, 0),
      addresses: 1,
    });
  });
});

describe("the data model's payloads as they are", () => {
  const client = () => new TestClient(t.app, "203.0.113.20");

  it("performance data: lcp, fid, cls, ttfb, domLoadTime, pageLoadTime and nothing else", async () => {
    const response = await client().post("/api/analytics/performance", {
      lcp: 1200,
      fid: 8,
      cls: 0.02,
      ttfb: 90,
      domLoadTime: 700,
      pageLoadTime: 1500,
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: 1 });
    expect(
      await rows(
        "SELECT analytics_session_id, page_path, lcp, page_load_time FROM analytics_performance WHERE lcp = 1200",
      ),
    ).toEqual([{ analytics_session_id: null, page_path: null, lcp: 1200, page_load_time: 1500 }]);
    // The admin's summary still answers, the page-less samples under "(no page)".
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const summary = await admin.get("/api/admin/analytics");
    expect(summary.statusCode).toBe(200);
    expect(summary.json().webVitals).toContainEqual(
      expect.objectContaining({ pagePath: "(no page)", lcp: 1200 }),
    );
  });

  it("a page view without a session id, and a session end with only its duration", async () => {
    const view = await client().post("/api/analytics/pageview", {
      pagePath: "/spec-view",
      pageTitle: "Cohort",
      referrer: "",
      utmParams: { source: "x" },
      deviceInfo: { language: "en" },
      screenInfo: { width: 800, height: 600 },
    });
    expect(view.json()).toEqual({ accepted: 1 });
    const end = await client().post("/api/analytics/session-end", { duration: 4242 });
    expect(end.json()).toEqual({ accepted: 1 });
    expect(
      await rows(
        "SELECT analytics_session_id FROM analytics_session_ends WHERE duration_seconds = 4242",
      ),
    ).toEqual([{ analytics_session_id: null }]);
  });
});

import { Writable } from "node:stream";
import { REDACTED, type TClientLogEntry, type TPageView } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { TestClient } from "../support/client";
import { eventually } from "../support/wait";

/**
 * Advisory class: secrets in logs. Tokens that grant access by themselves (share links,
 * invitations) sit in URL paths; clients send free text, URLs and nested data to
 * `POST /api/logs`. None of it may reach a request log, a stored log entry or analytics
 * (the validation rules' keys plus those of decision 051, at any depth and in query strings).
 */

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: "info", TELEMETRY_FLUSH_INTERVAL_MS: "20" },
    {
      logStream: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    },
  );
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
});

const SHARE_TOKEN = "ShareTokenSecret_0123456789abcdefghijklmnopq";
const INVITE_TOKEN = "invitation-token-secret-abcdef0123456789";

describe("token paths", () => {
  it("keep the route and never the token in request logs", async () => {
    const client = new TestClient(t.app);
    await client.get(`/api/share/${SHARE_TOKEN}`);
    await client.get(`/api/share/${SHARE_TOKEN}/events`);
    await client.get(`/api/invitations/${INVITE_TOKEN}`);
    await client.get(`/share/${SHARE_TOKEN}`);
    const log = lines.join("");
    expect(log).not.toContain(SHARE_TOKEN);
    expect(log).not.toContain(INVITE_TOKEN);
    const urls = lines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .map((line) => line.req?.url)
      .filter((url): url is string => url !== undefined);
    expect(urls).toEqual(
      expect.arrayContaining([
        `/api/share/${REDACTED}`,
        `/api/share/${REDACTED}/events`,
        `/api/invitations/${REDACTED}`,
        `/share/${REDACTED}`,
      ]),
    );
  });

  it("are stored without the token in page views", async () => {
    const view: TPageView = {
      sessionId: "secrets-1",
      pagePath: `/share/${SHARE_TOKEN}`,
      pageTitle: "Shared session",
      referrer: `https://cohort.example/dashboard?invite=${INVITE_TOKEN}`,
      utmParams: {},
      deviceInfo: { userAgent: "test-agent", language: "en", deviceType: "desktop" },
      screenInfo: { width: 1280, height: 800, pixelRatio: 2 },
    };
    const response = await new TestClient(t.app).post("/api/analytics/pageview", view);
    expect(response.statusCode).toBe(202);
    const { rows } = await eventually(
      () =>
        t.db.query<{ page_path: string; referrer: string }>(
          "SELECT page_path, referrer FROM analytics_page_views WHERE analytics_session_id = 'secrets-1'",
        ),
      (r) => r.rows.length === 1,
    );
    expect(rows).toEqual([
      {
        page_path: `/share/${REDACTED}`,
        referrer: "https://cohort.example/dashboard?invite=%5BREDACTED%5D",
      },
    ]);
  });
});

describe("POST /api/logs", () => {
  it("redacts the message, the url's query and every secret key at any depth", async () => {
    const { client, user } = await signUp(t.app);
    const entry: TClientLogEntry = {
      timestamp: new Date().toISOString(),
      level: "error",
      message: `Fetch https://cohort.example/api/share/${SHARE_TOKEN}?access_token=at-1 failed: Authorization: Bearer bearer-2, password=pw-3`,
      url: "https://cohort.example/chat?refresh_token=rt-4&sessionToken=st-5&page=2",
      userAgent: "test-agent",
      data: {
        headers: { cookie: "cohort_session=ck-6" },
        nested: [{ access_token: "at-7", refresh_token: "rt-8", sessionToken: "st-9" }],
        link: `https://cohort.example/share/${SHARE_TOKEN}`,
        kept: "ordinary text",
      },
    };
    const response = await client.post("/api/logs", { logs: [entry] });
    expect(response.statusCode).toBe(202);
    const { rows } = await eventually(
      () =>
        t.db.query<{ message: string; url: string; data: unknown }>(
          "SELECT message, url, data FROM telemetry_logs WHERE user_id = $1 AND source = 'client'",
          [user.id],
        ),
      (r) => r.rows.length === 1,
    );
    const stored = rows[0];
    expect(stored?.message).toBe(
      `Fetch https://cohort.example/api/share/${REDACTED}?access_token=${REDACTED} failed: Authorization: ${REDACTED} ${REDACTED}, password=${REDACTED}`,
    );
    expect(stored?.url).toBe(
      "https://cohort.example/chat?refresh_token=%5BREDACTED%5D&sessionToken=%5BREDACTED%5D&page=2",
    );
    expect(stored?.data).toEqual({
      headers: { cookie: REDACTED },
      nested: [{ access_token: REDACTED, refresh_token: REDACTED, sessionToken: REDACTED }],
      link: `https://cohort.example/share/${REDACTED}`,
      kept: "ordinary text",
    });
  });
});

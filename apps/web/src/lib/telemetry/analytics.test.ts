// @vitest-environment node
import {
  ANALYTICS_MIN_SEND_INTERVAL_MS,
  ANALYTICS_RATE_LIMIT_BACKOFF_MS,
  ANALYTICS_SESSION_TIMEOUT_MS,
} from "@cohort/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { StorageLike } from "../storage/browser-storage";
import { ANALYTICS_SESSION_KEY, createAnalytics, type PageViewInput } from "./analytics";
import type { SendOptions, SendResult, TelemetryTransport } from "./transport";

function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

interface Sent {
  path: string;
  items: { sessionId: string; userId?: string; pagePath?: string; duration?: number }[];
  at: number;
  options: SendOptions | undefined;
}

function setup(options: { declines?: boolean; answer?: () => SendResult } = {}) {
  const sent: Sent[] = [];
  const transport: TelemetryTransport = {
    send: async (path, body, sendOptions) => {
      sent.push({ path, items: body as Sent["items"], at: Date.now(), options: sendOptions });
      return options.answer?.() ?? { status: 202 };
    },
  };
  let n = 0;
  const localStorage = memoryStorage();
  const analytics = createAnalytics({
    transport,
    localStorage,
    now: () => Date.now(),
    randomId: () => `s${++n}`,
    browserDeclines: () => options.declines ?? false,
    userId: () => "u1",
  });
  return { analytics, sent, localStorage };
}

function view(pagePath: string): PageViewInput {
  return {
    pagePath,
    pageTitle: "Cohort",
    referrer: "",
    utmParams: {},
    deviceInfo: {},
    screenInfo: { width: 1, height: 1 },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-11-23T00:00:00.000Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("analytics session id", () => {
  it("is reused while the last activity was under 30 minutes ago, else new", () => {
    const { analytics } = setup();
    const first = analytics.sessionId();
    vi.advanceTimersByTime(ANALYTICS_SESSION_TIMEOUT_MS - 1);
    expect(analytics.sessionId()).toBe(first);
    // Activity just now: the 30 minutes count from here.
    vi.advanceTimersByTime(ANALYTICS_SESSION_TIMEOUT_MS - 1);
    expect(analytics.sessionId()).toBe(first);
    vi.advanceTimersByTime(ANALYTICS_SESSION_TIMEOUT_MS);
    expect(analytics.sessionId()).not.toBe(first);
  });

  it("is shared through localStorage", () => {
    const { analytics, localStorage } = setup();
    const id = analytics.sessionId();
    expect(JSON.parse(localStorage.getItem(ANALYTICS_SESSION_KEY) ?? "{}").id).toBe(id);
  });
});

describe("analytics sending", () => {
  it("leaves at least 2 s between sends, one kind per send", async () => {
    const { analytics, sent } = setup();
    analytics.trackPageView(view("/"));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    analytics.trackPageView(view("/pricing"));
    analytics.trackEvent({ category: "Funnel", action: "sign_up" });
    analytics.trackPageView(view("/features"));
    await vi.advanceTimersByTimeAsync(ANALYTICS_MIN_SEND_INTERVAL_MS - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.path).toBe("/analytics/pageview");
    expect(sent[1]?.items.map((i) => i.pagePath)).toEqual(["/pricing", "/features"]);
    await vi.advanceTimersByTimeAsync(ANALYTICS_MIN_SEND_INTERVAL_MS);
    expect(sent[2]?.path).toBe("/analytics/event");
    for (let i = 1; i < sent.length; i++) {
      expect((sent[i]?.at ?? 0) - (sent[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(
        ANALYTICS_MIN_SEND_INTERVAL_MS,
      );
    }
    expect(sent[0]?.items[0]).toMatchObject({ sessionId: "s1", userId: "u1" });
  });

  it("on 429 empties its queue and records nothing for 60 s", async () => {
    let status = 429;
    const { analytics, sent } = setup({ answer: () => ({ status }) });
    analytics.trackPageView(view("/"));
    analytics.trackEvent({ category: "Performance", action: "LCP", value: 1200 });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(analytics.pending()).toBe(0);
    status = 202;
    analytics.trackPageView(view("/dropped"));
    await vi.advanceTimersByTimeAsync(ANALYTICS_RATE_LIMIT_BACKOFF_MS - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    analytics.trackPageView(view("/after"));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.items[0]?.pagePath)).toEqual(["/", "/after"]);
  });

  it("sends nothing under Do Not Track / GPC or after an opt-out", async () => {
    const declined = setup({ declines: true });
    declined.analytics.trackPageView(view("/"));
    declined.analytics.endSession();
    await vi.advanceTimersByTimeAsync(ANALYTICS_MIN_SEND_INTERVAL_MS);
    expect(declined.sent).toHaveLength(0);

    const { analytics, sent } = setup();
    analytics.setOptOut(true);
    analytics.trackPageView(view("/"));
    await vi.advanceTimersByTimeAsync(ANALYTICS_MIN_SEND_INTERVAL_MS);
    expect(sent).toHaveLength(0);
    analytics.setOptOut(false);
    analytics.trackPageView(view("/again"));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
  });

  it("ends the session with its duration in seconds and sends what is queued, with keepalive", async () => {
    const { analytics, sent } = setup();
    analytics.sessionId();
    vi.advanceTimersByTime(95_400);
    analytics.trackPageView(view("/"));
    analytics.endSession();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.path)).toEqual(["/analytics/pageview", "/analytics/session-end"]);
    expect(sent.every((s) => s.options?.keepalive === true)).toBe(true);
    expect(sent[1]?.items[0]).toMatchObject({ sessionId: "s1", duration: 95 });
  });
});

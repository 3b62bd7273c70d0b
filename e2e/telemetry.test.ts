import type { TAnalyticsSummary, TLogEntriesResponse, TRequestTrail } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, logInViaApi, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * Client telemetry end to end in a real Chromium: what the pages report (page views, a failed
 * call's error entry with its request id) reaches the server and the admin's read views.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function adminGet<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseURL()}${path}`, {
    headers: { authorization: `Bearer ${await adminToken()}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

const POLL = { timeout: 20_000, interval: 250 };

describe("telemetry", () => {
  it("sends page views of every route change, with the campaign they came from", async () => {
    const source = `e2e-${Date.now().toString(36)}`;
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`/?utm_source=${source}&utm_medium=email`);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    // A client-side navigation: no page load, still a page view.
    await page.getByRole("link", { name: "Pricing" }).first().click();
    await page.waitForURL("**/pricing");

    await expect
      .poll(async () => {
        const { body } = await adminGet<TAnalyticsSummary>("/api/admin/analytics?limit=100");
        return {
          campaign: body.utmSources.some((u) => u.key === source),
          landing: body.topPages.some((p) => p.key === "/"),
          pricing: body.topPages.some((p) => p.key === "/pricing"),
        };
      }, POLL)
      .toEqual({ campaign: true, landing: true, pricing: true });
    expectNoErrors();
    await close();
  });

  it("reports a failed call at once, with its request id, into the admin's log view", async () => {
    const user = await createUser();
    const token = await logInViaApi(user.email, user.password);
    const profile = await fetch(`${baseURL()}/api/users/profile`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const userId = ((await profile.json()) as { user: { id: string } }).user.id;
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), token);
    // The Settings page's privacy card asks for the analytics choice: make that call fail
    // before it reaches the server, and remember the request id the page gave it.
    let requestId: string | undefined;
    await page.route("**/api/telemetry/preferences", async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      // Retries get ids of their own; the first is the one followed here.
      requestId ??= route.request().headers()["x-request-id"];
      return route.abort("failed");
    });
    await page.goto("/settings");
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await expect.poll(() => requestId, POLL).toBeTruthy();

    await expect
      .poll(async () => {
        const { body } = await adminGet<TLogEntriesResponse>(
          `/api/admin/logs?requestId=${encodeURIComponent(requestId ?? "")}`,
        );
        return body.entries.map((e) => ({ level: e.level, userId: e.userId, source: e.source }));
      }, POLL)
      .toContainEqual({ level: "error", userId, source: "client" });

    const trail = await adminGet<TRequestTrail>(
      `/api/admin/logs/requests/${encodeURIComponent(requestId ?? "")}`,
    );
    expect(trail.status).toBe(200);
    expect(trail.body.entries[0]).toMatchObject({
      message: "API request failed before a response",
      requestId,
      url: `${baseURL()}/settings`,
    });
    expectNoErrors([
      /Failed to load resource/,
      /ERR_FAILED/,
      /API request failed before a response/,
    ]);
    await close();
  });

  it("turns analytics off for the account from Settings", async () => {
    const user = await createUser();
    const token = await logInViaApi(user.email, user.password);
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), token);
    await page.goto("/settings");
    const share = page.getByRole("checkbox", { name: /Share usage analytics/ });
    await expect.poll(() => share.isEnabled(), POLL).toBe(true);
    expect(await share.isChecked()).toBe(true);
    await share.uncheck();
    await expectToast(page, "Analytics turned off");

    const preferences = await fetch(`${baseURL()}/api/telemetry/preferences`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await preferences.json()).toEqual({ analyticsOptOut: true });
    // This browser stops at once too, before any server round trip.
    expect(await page.evaluate(() => localStorage.getItem("cohortAnalyticsOptOut"))).toBe("1");
    expectNoErrors();
    await close();
  });
});

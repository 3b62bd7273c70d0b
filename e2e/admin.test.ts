import { AUTH_MESSAGES } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { adminToken, createUser, logInViaApi, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401, expectToast } from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const WIDE = { viewport: { width: 1280, height: 900 } };
const POLL = { timeout: 20_000, interval: 250 };

/** A page signed in as the administrator (the sign-in cookie, as the admin sign-in sets it). */
async function adminPage() {
  const guarded = await openPage(browser, WIDE);
  await signInContext(guarded.page.context(), await adminToken());
  return guarded;
}

async function userIdOf(token: string): Promise<string> {
  const response = await fetch(`${baseURL()}/api/users/profile`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await response.json()) as { user: { id: string } }).user.id;
}

async function openSection(page: Page, name: string, heading = name) {
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name }).click();
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

describe("the admin area", () => {
  it("signs the admin in to the overview, and shows the outbox with its working links", async () => {
    const user = await createUser({ firstName: "Outbox" });
    const { page, expectNoErrors, close } = await openPage(browser, WIDE);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await page.getByRole("heading", { level: 1, name: "Admin sign-in" }).waitFor();
    await screenshot(page, "admin-login", false);
    await page.getByLabel("Email address").fill(inject("adminEmail"));
    await page.getByLabel("Password", { exact: true }).fill(inject("adminPassword"));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/admin/dashboard");
    await page.getByRole("heading", { level: 1, name: "Admin dashboard" }).waitFor();
    // The sign-in toast would cover part of every screenshot below.
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await page.getByTestId("chart-signups").waitFor();
    await page.getByTestId("provider-health").waitFor();
    await screenshot(page, "admin-dashboard");

    await openSection(page, "Outbox");
    const message = page
      .getByTestId("outbox")
      .locator("li")
      .filter({ hasText: `To ${user.email}` })
      .first();
    await message.waitFor();
    await message.getByText("Confirm your email address for Cohort").click();
    const link = message.getByRole("link", { name: /\/verify-email\?token=/ });
    await link.waitFor();
    expect(await link.getAttribute("href")).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/verify-email\?token=/,
    );
    await screenshot(page, "admin-outbox", false);

    await openSection(page, "Agreements");
    await page.getByTestId("agreement-versions").waitFor();
    expect(await page.getByRole("form", { name: "Publish agreement version" }).count()).toBe(1);
    await screenshot(page, "admin-agreements");

    await openSection(page, "Models");
    await page.getByTestId("admin-models").waitFor();
    await screenshot(page, "admin-models");

    await openSection(page, "Analytics");
    await page.getByTestId("funnel").waitFor();
    await screenshot(page, "admin-analytics");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("keeps a normal user out: /admin/dashboard goes to /admin/login, whose sign-in refuses them", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser);
    await signInContext(page.context(), user.token);
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await page.getByRole("heading", { level: 1, name: "Admin sign-in" }).waitFor();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectToast(page, AUTH_MESSAGES.invalidCredentials);
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("adjusts a user's credits: the ledger row and the audit entry show", async () => {
    const user = await createUser({ firstName: "Ledger" });
    const { page, expectNoErrors, close } = await adminPage();
    await page.goto("/admin/users");
    await page.getByLabel("Search users").fill(user.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByTestId("users-table").getByRole("link", { name: user.email });
    await row.waitFor();
    await screenshot(page, "admin-users");
    await row.click();
    await page.getByRole("heading", { level: 1, name: user.email }).waitFor();

    const form = page.getByRole("form", { name: "Adjust credits" });
    await form.getByLabel("Amount").fill("42.5");
    await form.getByLabel("Reason").fill("Goodwill for the outage");
    await form.getByRole("button", { name: "Adjust credits" }).click();
    await expectToast(page, "Balance is now");

    const ledgerRow = page
      .getByTestId("admin-ledger")
      .locator("tr")
      .filter({ hasText: "Goodwill for the outage" });
    await ledgerRow.waitFor();
    expect(await ledgerRow.textContent()).toContain("+42.5");
    const auditRow = page
      .getByTestId("audit-table")
      .locator("tr")
      .filter({ hasText: "Credits adjusted" });
    await auditRow.waitFor();
    expect(await auditRow.textContent()).toContain("Goodwill for the outage");
    // What the action did is a sentence, not the stored JSON; the user's own page names no
    // target (it is this user).
    expect(await auditRow.getByTestId("audit-details").textContent()).toMatch(
      /^Added 42\.5 credits: the balance went from [\d,.]+ to [\d,.]+ credits\.$/,
    );
    expect(await auditRow.textContent()).not.toMatch(/[{}]/);
    expect(
      await page.getByTestId("audit-table").getByRole("columnheader").allTextContents(),
    ).toEqual(["When", "Who", "What", "Details", "Reason"]);
    // The sign-in made by the test's own fetch reads as an API client, not "node".
    const devices = await page.getByTestId("sign-in-device").allTextContents();
    expect(devices.length).toBeGreaterThan(0);
    expect([...new Set(devices)]).toEqual(["API client"]);
    await screenshot(page, "admin-user");

    await openSection(page, "Audit log");
    await page
      .getByTestId("audit-table")
      .locator("tr")
      .filter({ hasText: "Goodwill for the outage" })
      .first()
      .waitFor();
    await screenshot(page, "admin-audit");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("disables a user: their open tab is signed out, and they cannot sign in again", async () => {
    const user = await createUser({ firstName: "Disabled" });
    const token = await logInViaApi(user.email, user.password);
    const userId = await userIdOf(token);
    const tab = await openPage(browser, WIDE);
    await signInContext(tab.page.context(), token);
    await tab.page.goto("/dashboard");
    await tab.page.getByRole("heading", { level: 1 }).first().waitFor();

    const { page, expectNoErrors, close } = await adminPage();
    await page.goto(`/admin/users/${userId}`);
    await page.getByRole("heading", { level: 1, name: user.email }).waitFor();
    await page.getByLabel("Reason for disabling").fill("Abuse report 7");
    await page.getByRole("button", { name: "Disable account" }).click();
    await expectToast(page, "Account disabled");
    await page
      .getByTestId("user-profile")
      .getByText(/^Disabled/)
      .waitFor();

    // Its socket is closed, the reconnection refused, and the 401 policy signs the tab out.
    await tab.page.waitForURL("**/login", { timeout: 20_000 });
    await tab.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    const refused = await fetch(`${baseURL()}/api/user-auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(refused.status).toBe(403);
    tab.expectNoErrors([EXPECTED_401, /Failed to load resource/]);
    await tab.close();
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("finds a failed call's client error in the log view by its request id, with its trail", async () => {
    const user = await createUser({ firstName: "Logs" });
    const token = await logInViaApi(user.email, user.password);
    const tab = await openPage(browser, WIDE);
    await signInContext(tab.page.context(), token);
    let requestId: string | undefined;
    await tab.page.route("**/api/telemetry/preferences", async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      requestId ??= route.request().headers()["x-request-id"];
      return route.abort("failed");
    });
    await tab.page.goto("/settings");
    await tab.page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await expect.poll(() => requestId, POLL).toBeTruthy();

    const { page, expectNoErrors, close } = await adminPage();
    await page.goto("/admin/logs");
    await page.getByLabel("Request id").fill(requestId ?? "");
    const link = page.getByTestId("log-table").getByRole("button", { name: requestId ?? "" });
    // Entries are written in batches: filter again until this one has landed.
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: "Filter" }).click();
        return link
          .first()
          .waitFor({ timeout: 1_000 })
          .then(() => true)
          .catch(() => false);
      }, POLL)
      .toBe(true);
    await link.first().click();
    const trail = page.getByTestId("request-trail");
    await trail.getByText("API request failed before a response").first().waitFor();
    await screenshot(page, "admin-logs");
    expectNoErrors([EXPECTED_401]);
    tab.expectNoErrors([/Failed to load resource/, /ERR_FAILED/, /API request failed/]);
    await tab.close();
    await close();
  });
});

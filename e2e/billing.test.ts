import type {
  TAdminCreditAdjustmentResponse,
  TBillingSummary,
  TUserResponse,
  TUserUsage,
} from "@cohort/contracts";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast, horizontalOverflow } from "./support/ui";

/**
 * The "Credits, tiers and billing" screens in a real browser against the built server, whose
 * payments run on the dev checkout (no Stripe key): a pack bought through the test payment
 * page, an upgrade to Pro, and the shell's low/critical credit widget driven by an
 * administrator's adjustments arriving over the socket.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const phone = { viewport: { width: 360, height: 780 } };

async function api<T>(method: string, path: string, bearer: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function userId(user: TestUser): Promise<string> {
  return (await api<TUserResponse>("GET", "/api/users/profile", user.token)).user.id;
}

async function summaryOf(user: TestUser): Promise<TBillingSummary> {
  return api<TBillingSummary>("GET", "/api/billing/summary", user.token);
}

/** Moves the user's balance to `target` with an administrator's adjustment. */
async function setBalance(user: TestUser, target: number): Promise<void> {
  const { balance } = await summaryOf(user);
  const result = await api<TAdminCreditAdjustmentResponse>(
    "POST",
    `/api/admin/users/${await userId(user)}/credits`,
    await adminToken(),
    { delta: target - balance, reason: `e2e: set the balance to ${target}` },
  );
  expect(result.balance).toBe(target);
}

/** A page for the billing flows (the dev checkout and portal pages name the app's icon). */
async function openBillingPage(options: BrowserContextOptions) {
  return openPage(browser, options);
}

async function textOf(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).first().textContent()) ?? "").replace(/\s+/g, " ");
}

/** The sidebar's widget (the desktop layout) has this balance. */
async function expectSidebarBalance(page: Page, amount: string): Promise<void> {
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect
    .poll(() => sidebar.getByTestId("credit-balance-amount").textContent(), { timeout: 10_000 })
    .toBe(amount);
}

describe("billing", () => {
  it("buys a credit pack through the dev checkout: the balance and the ledger change", async () => {
    const user = await createUser();
    const before = await summaryOf(user);
    expect(before.payments).toBe("dev");
    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);

    await page.goto("/billing");
    await page.getByRole("heading", { level: 1, name: "Billing" }).waitFor();
    await expect.poll(() => textOf(page, "billing-balance")).toBe(`${before.balance} credits`);
    expect(await textOf(page, "billing-tier")).toBe("Free");
    // The product limits labels: Starter is in beta; every plan is monthly until the toggle says otherwise.
    const starter = page.getByTestId("billing-plan-starter");
    expect(await starter.getByText("IN BETA").count()).toBe(1);
    expect(await starter.textContent()).toContain("$9.99/month");
    const history = page.getByTestId("ledger-table");
    await history.waitFor();
    expect(await history.locator("tbody tr").count()).toBe(1);
    expect(await history.locator("tbody tr").first().textContent()).toContain("Welcome credits");
    // Usage at a glance: a new account has used nothing.
    expect(await textOf(page, "usage-stats")).toContain("Requests0");
    await page.getByTestId("usage-by-day").waitFor();
    expect(await page.getByTestId("usage-by-model").textContent()).toContain(
      "No model calls in this period yet.",
    );

    await page.getByRole("button", { name: "Buy 100 credits for $4.99" }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\/cs_test_dev_/);
    await page.getByText("Test payment page").waitFor();
    expect(await page.textContent("body")).toContain("Credit pack: 100 credits");
    await screenshot(page, "dev-checkout");

    await page.getByRole("button", { name: "Pay $4.99" }).click();
    await page.waitForURL((url) => url.pathname === "/billing" && url.search === "");
    // The toast says what this payment added: the server's record of the checkout.
    await expectToast(page, "Payment received: 100 credits added to your balance.");
    const after = before.balance + 100;
    await expect.poll(() => textOf(page, "billing-balance")).toBe(`${after} credits`);
    await expectSidebarBalance(page, String(after));
    const newest = history.locator("tbody tr").first();
    await expect.poll(() => newest.textContent()).toContain("Credit pack");
    expect(await newest.locator("td").nth(2).textContent()).toBe("+100");
    expect(await newest.locator("td").nth(3).textContent()).toBe(String(after));
    expect(await history.locator("tbody tr").count()).toBe(2);
    expect((await summaryOf(user)).balance).toBe(after);
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await page.locator("ol > li").waitFor({ state: "detached" });
    await screenshot(page, "billing");
    expectNoErrors();
    await close();
  });

  it("comes back from a cancelled checkout with a notice and nothing charged", async () => {
    const user = await createUser();
    const before = await summaryOf(user);
    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/billing");
    await page.getByRole("button", { name: "Buy 500 credits for $19.99" }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\//);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((url) => url.pathname === "/billing" && url.search === "");
    await expectToast(page, "Checkout cancelled. You have not been charged.");
    await expect.poll(() => textOf(page, "billing-balance")).toBe(`${before.balance} credits`);
    expect((await summaryOf(user)).balance).toBe(before.balance);
    expectNoErrors();
    await close();
  });

  it("upgrades to Pro through the checkout and the shell shows CoChat Unlimited", async () => {
    const user = await createUser();
    const before = await summaryOf(user);
    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/billing");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await sidebar.getByText("CoChat Locked").waitFor();
    expect(
      await sidebar.getByRole("link", { name: "Upgrade to unlock CoChat" }).getAttribute("href"),
    ).toBe("/pricing");

    // The yearly toggle prices ten months and grants twelve; monthly is the default.
    const pro = page.getByTestId("billing-plan-pro");
    expect(await pro.textContent()).toContain("$19.99/month");
    await page.getByText("Yearly", { exact: true }).click();
    expect(await pro.textContent()).toContain("$199.90/year");
    expect(await pro.textContent()).toContain("12,000 credits a year");
    await page.getByText("Monthly", { exact: true }).click();

    await pro.getByRole("button", { name: "Upgrade to Pro, billed monthly" }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\//);
    expect(await page.textContent("body")).toContain("Pro plan, billed monthly");
    await page.getByRole("button", { name: "Pay $19.99" }).click();
    await page.waitForURL((url) => url.pathname === "/billing" && url.search === "");
    await expectToast(
      page,
      "Payment received: you are on the Pro plan, billed monthly, with 1,000 credits a month.",
    );

    await sidebar.getByText("CoChat Unlimited").waitFor();
    expect(await sidebar.getByText("CoChat Locked").count()).toBe(0);
    expect(await sidebar.getByTestId("shell-tier").textContent()).toBe("Pro");
    await expect.poll(() => textOf(page, "billing-tier")).toBe("ProCoChat Unlimited");
    const after = before.balance + 1000;
    await expect
      .poll(() => textOf(page, "billing-balance"))
      .toBe(`${after.toLocaleString("en-US")} credits`);
    expect(await textOf(page, "billing-renewal")).toMatch(/^Renews on /);
    expect(await pro.getByRole("button", { name: "Current plan" }).isDisabled()).toBe(true);
    const newest = page.getByTestId("ledger-table").locator("tbody tr").first();
    await expect.poll(() => newest.textContent()).toContain("Plan credits");
    expect(await newest.locator("td").nth(2).textContent()).toBe("+1,000");

    await page.getByRole("button", { name: "Manage subscription" }).click();
    await page.waitForURL("**/api/billing/dev-portal");
    await page.getByRole("heading", { name: "Manage subscription" }).waitFor();
    expectNoErrors();
    await close();
  });

  it("groups a run's model calls into one history row linked to its session, which says Completed", async () => {
    const user = await createUser();
    const { session } = await api<{ session: { id: string } }>(
      "POST",
      "/api/sessions",
      user.token,
      { title: "Launch plan" },
    );
    await api("POST", "/api/ai/chat", user.token, {
      session_id: session.id,
      message: "Plan the launch of a note-taking app",
    });
    await expect
      .poll(
        async () =>
          (
            await api<{ runs: { status: string }[] }>(
              "GET",
              `/api/sessions/${session.id}`,
              user.token,
            )
          ).runs.at(-1)?.status,
        { timeout: 60_000, interval: 250 },
      )
      .toBe("completed");
    const history = await api<{ rows: { kind: string; calls?: unknown[] }[] }>(
      "GET",
      "/api/billing/credit-history",
      user.token,
    );
    const calls = history.rows[0]?.calls?.length ?? 0;
    expect(history.rows.map((row) => row.kind)).toEqual(["run", "entry"]);
    expect(calls).toBeGreaterThan(1);

    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/billing");
    const table = page.getByTestId("ledger-table");
    const run = table.getByTestId("ledger-run");
    await run.waitFor();
    expect(await run.count()).toBe(1);
    expect(await table.getByTestId("ledger-entry").count()).toBe(1);
    expect((await run.locator("td").nth(1).textContent()) ?? "").toContain("Run in Launch plan");
    const link = run.getByRole("link", { name: "Launch plan" });
    expect(await link.getAttribute("href")).toBe(`/chat/${session.id}`);
    const callRows = table.getByTestId("ledger-run-call");
    expect(await callRows.count()).toBe(calls);
    expect(await callRows.first().isVisible()).toBe(false);
    const toggle = run.getByRole("button", { name: `Show the ${calls} model calls` });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await toggle.click();
    await callRows.first().waitFor();
    // Model names from the catalogue, never ids.
    const models = await callRows.locator("td:nth-child(2)").allTextContents();
    expect(models).toContain("Model call: CoReason");
    expect(models.join(" ")).not.toContain("coreason");
    expect(
      await run
        .getByRole("button", { name: `Hide the ${calls} model calls` })
        .getAttribute("aria-expanded"),
    ).toBe("true");
    // The first screen at the history, not a full page (whose sticky sidebar lands at its foot).
    await run.scrollIntoViewIfNeeded();
    await screenshot(page, "billing-history-run", false);

    await link.click();
    await page.waitForURL(`**/chat/${session.id}`);
    const header = page.getByTestId("session-header");
    await expect.poll(() => header.getByTestId("session-status").textContent()).toBe("Completed");
    const listed = page
      .getByTestId("session-list")
      .getByRole("link", { name: /Launch plan/ })
      .getByTestId("session-status");
    await expect.poll(() => listed.first().textContent()).toBe("Completed");
    // The screen as seen: a full-page picture repeats the sticky header and weighs > 400 KB.
    await screenshot(page, "session-completed", false);
    expectNoErrors();
    await close();
  });

  it("shows the low and critical levels with their toasts, announcements and the refresh at 0", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);
    await setBalance(user, 40);
    await page.goto("/dashboard");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    const widget = sidebar.getByTestId("credit-balance");
    await expectSidebarBalance(page, "40");
    expect(await widget.getAttribute("data-level")).toBe("normal");
    expect(await widget.getByTestId("credit-message").count()).toBe(0);

    await setBalance(user, 20);
    await expectToast(page, "Low credits: 20 remaining");
    await expectSidebarBalance(page, "20");
    expect(await widget.getAttribute("data-level")).toBe("low");
    expect(await widget.getByTestId("credit-message").textContent()).toBe(
      "Running low. Consider adding credits.",
    );
    expect(await page.getByTestId("credit-announcement").textContent()).toBe(
      "Used 20 credits. 20 credits remaining.",
    );
    await screenshot(page, "credits-low", false);

    // A further drop inside the level is announced but not toasted again.
    await setBalance(user, 12);
    await expect
      .poll(() => page.getByTestId("credit-announcement").textContent())
      .toBe("Used 8 credits. 12 credits remaining.");
    expect(await page.locator("ol > li").getByText("Low credits: 12 remaining").count()).toBe(0);

    await setBalance(user, 5);
    await expectToast(page, "Critical: Only 5 credits remaining!");
    expect(await widget.getAttribute("data-level")).toBe("critical");
    expect(await widget.getByTestId("credit-message").textContent()).toBe(
      "Critical! Add credits to continue.",
    );
    expect(await widget.getByRole("button", { name: "Refresh credits" }).count()).toBe(0);

    await setBalance(user, 0);
    await expectSidebarBalance(page, "0");
    const refresh = widget.getByRole("button", { name: "Refresh credits" });
    await refresh.click();
    await expectToast(page, "Credits refreshed");

    await page.route("**/api/users/profile", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "Down for a moment" } }),
      }),
    );
    await refresh.click();
    await expectToast(page, "Failed to refresh credits");
    await page.unroute("**/api/users/profile");
    expectNoErrors([
      /Failed to load resource: the server responded with a status of 503/,
      /\[cohort\] Server error/,
    ]);
    await close();
  });

  it("draws the usage charts by day and by model, and shows zero totals when stats fail", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openBillingPage(desktop);
    await signInContext(page.context(), user.token);
    // A usage history the account cannot have yet (runs come with the orchestration issue),
    // shaped as the server answers; the totals call fails, as the API allows for.
    const days: TUserUsage["days"] = Array.from({ length: 7 }, (_, i) => ({
      date: `2026-03-0${i + 1}`,
      requests: i,
      input_tokens: i * 100,
      output_tokens: i * 50,
      credits: [0, 2, 0, 12.5, 4, 0, 7][i] ?? 0,
      cost: i * 0.01,
    }));
    const usage: TUserUsage = {
      from: "2026-03-01",
      to: "2026-03-07",
      totals: {
        total_requests: 21,
        total_tokens: 3150,
        total_cost: 0.21,
        total_credits_used: 25.5,
      },
      days,
      models: [
        {
          model: "CoReason",
          provider: "cohort",
          requests: 12,
          input_tokens: 1500,
          output_tokens: 900,
          credits: 20,
          cost: 0.15,
        },
        {
          model: "gpt-4o",
          provider: "openai",
          requests: 9,
          input_tokens: 600,
          output_tokens: 150,
          credits: 5.5,
          cost: 0.06,
        },
      ],
    };
    await page.route("**/api/users/usage?*", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(usage) }),
    );
    await page.route("**/api/billing/usage-stats", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "Internal error" } }),
      }),
    );
    await page.goto("/billing");
    const byDay = page.getByTestId("usage-by-day");
    await byDay.waitFor();
    expect(await byDay.getByRole("img").getAttribute("aria-label")).toBe(
      "Bar chart of credits used per day from March 1, 2026 to March 7, 2026: 25.5 credits in total, the most on March 4, 2026 (12.5 credits).",
    );
    await byDay.getByText("Show the numbers").click();
    expect(await byDay.locator("tbody tr").count()).toBe(7);
    expect(await byDay.locator("tbody tr").nth(3).textContent()).toBe("March 4, 20263450" + "12.5");
    const byModel = page.getByTestId("usage-by-model");
    expect(await byModel.locator("li").count()).toBe(2);
    expect(await byModel.locator("li").first().textContent()).toContain("CoReason");
    expect(await byModel.locator("li").first().textContent()).toContain("20 credits · 12 requests");
    // The API: usage stats are zeros on failure.
    await expect
      .poll(() => textOf(page, "usage-stats"))
      .toBe("Requests0Tokens0Credits used0Provider cost$0.00");
    await page
      .getByTestId("billing-usage")
      .screenshot({ path: "test-results/screenshots/billing-usage-charts.png" });
    expectNoErrors([
      /Failed to load resource: the server responded with a status of 500/,
      /\[cohort\] Server error/,
    ]);
    await close();
  });

  it("fits a 360 px screen: the billing page and the header's credit chip", async () => {
    const user = await createUser();
    await setBalance(user, 15);
    const { page, expectNoErrors, close } = await openBillingPage(phone);
    await signInContext(page.context(), user.token);
    await page.goto("/billing");
    await page.getByRole("heading", { level: 1, name: "Billing" }).waitFor();
    await page.getByTestId("ledger-table").waitFor();
    const chip = page.getByTestId("credit-chip");
    expect(await chip.getAttribute("data-level")).toBe("low");
    expect(await chip.textContent()).toBe("15credits");
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "billing-mobile");
    await page.getByRole("button", { name: "Open navigation" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    expect(await drawer.getByTestId("credit-message").textContent()).toBe(
      "Running low. Consider adding credits.",
    );
    expectNoErrors();
    await close();
  });
});

import {
  SPENDING_ROUTES,
  type TSessionResponse,
  type TSpendingLimit,
  type TUserResponse,
  type TWorkspaceCredits,
  type TWorkspaceOne,
  WORKSPACE_CREDIT_ROUTES,
  WORKSPACE_ROUTES,
} from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, linkIn, signInContext, type TestUser, waitForEmail } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * The money screens of decisions 053 and 054, on the suite's server, which charges simulated
 * calls at catalogue prices (SIMULATOR_CHARGES=1) so money moves: the wallet that pays for
 * the open session, the cost preview, refusals that name their limit, the personal monthly
 * spending limit, a member cap that no longer refuses work it allows, and an unverified
 * account's balance.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 960 } };
const RUN_TIMEOUT = 90_000;
/** For what a loaded machine may take a few seconds to show (lists, pushed balances). */
const SLOW = { timeout: 10_000 };

async function api<T>(method: string, path: string, user: TestUser, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${user.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function profileOf(user: TestUser) {
  return (await api<TUserResponse>("GET", "/api/users/profile", user)).user;
}

async function createTeam(owner: TestUser, name: string): Promise<string> {
  return (await api<TWorkspaceOne>("POST", WORKSPACE_ROUTES.list, owner, { name })).workspace.id;
}

/** A session made through the API: the whole team, or only the Coder (a cheap first run). */
async function createSession(
  user: TestUser,
  title: string,
  options: { workspaceId?: string; coderOnly?: boolean } = {},
): Promise<string> {
  const body = {
    title,
    ...(options.workspaceId ? { workspace_id: options.workspaceId } : {}),
    ...(options.coderOnly
      ? { manual_agent_selection: true, agent_preferences: { coder: { enabled: true } } }
      : {}),
  };
  return (await api<TSessionResponse>("POST", "/api/sessions", user, body)).session.id;
}

/** Fills a team's pool through the dev checkout, as the owner's browser would. */
async function fundPool(owner: TestUser, workspaceId: string): Promise<void> {
  const { checkout_url } = await api<{ checkout_url: string }>(
    "POST",
    "/api/billing/purchase-credits",
    owner,
    { packageId: "pack_100", workspace_id: workspaceId },
  );
  const pay = await fetch(new URL(`${new URL(checkout_url, baseURL()).pathname}/pay`, baseURL()), {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, origin: baseURL() },
    redirect: "manual",
  });
  expect(pay.status).toBe(303);
}

/** Invites `member` by mail and accepts the mailed link as them. */
async function addMember(owner: TestUser, workspaceId: string, member: TestUser): Promise<void> {
  await api("POST", WORKSPACE_ROUTES.invitations(workspaceId), owner, {
    email: member.email,
    role: "member",
  });
  const mail = await waitForEmail(member.email, /invited to a team workspace/);
  const token = new URL(linkIn(mail, "/dashboard?invite=")).searchParams.get("invite") ?? "";
  await api("POST", WORKSPACE_ROUTES.acceptInvitation(token), member);
}

function sidebar(page: Page): Locator {
  return page.getByRole("complementary", { name: "Sidebar" });
}

function composer(page: Page): Locator {
  return page.getByRole("textbox", { name: "Message" });
}

async function switchWorkspace(page: Page, name: RegExp): Promise<void> {
  const switcher = sidebar(page).getByTestId("workspace-switcher");
  await switcher.click();
  await page.getByRole("menuitemradio", { name }).click();
  await expect.poll(() => switcher.textContent(), SLOW).toMatch(name);
}

async function send(page: Page, text: string): Promise<Locator> {
  const box = composer(page);
  await expect.poll(() => box.isEnabled()).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(runs + 1);
  const id = await page.getByTestId("run").last().getAttribute("data-run-id");
  return page.locator(`[data-testid="run"][data-run-id="${id}"]`);
}

async function finished(run: Locator): Promise<string | null> {
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT, interval: 100 })
    .toMatch(/^(completed|failed|cancelled)$/);
  return run.getAttribute("data-status");
}

describe("money on screen", () => {
  it("asks a brand-new unverified account to verify its email, without a critical warning", async () => {
    const user = await createUser({ verified: false });
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/dashboard");
    const widget = sidebar(page).getByTestId("credit-balance");
    await widget.waitFor();
    expect(await widget.getAttribute("data-level")).toBe("awaiting");
    expect(await widget.getByTestId("credit-message").textContent()).toBe(
      "Verify your email to receive your free credits.",
    );
    expect(await widget.textContent()).not.toContain("Critical");
    expectNoErrors();
    await close();
  });

  it("shows and charges the personal balance in a personal session while a team is in view, with the run's estimated cost", async () => {
    const owner = await createUser({ firstName: "Pat", lastName: "Personal" });
    const teamId = await createTeam(owner, "Wallet Team");
    const sessionId = await createSession(owner, "My own notes");
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), owner.token);
    await page.goto("/dashboard");
    await switchWorkspace(page, /Wallet Team/);
    const widget = sidebar(page).getByTestId("credit-balance");
    await expect.poll(() => widget.textContent(), SLOW).toContain("Team pool");

    // The personal session, opened from its link with the team still in view.
    await page.goto(`/chat/${sessionId}`);
    const header = page.getByTestId("session-header");
    await header.getByTestId("session-workspace").waitFor();
    expect(await header.getByTestId("session-workspace").textContent()).toBe(
      "Personal workspaceRuns are paid from your own credits.",
    );
    await expect.poll(() => widget.textContent(), SLOW).not.toContain("Team pool");
    const before = (await profileOf(owner)).credits_remaining;
    expect(await widget.getByTestId("credit-balance-amount").textContent()).toBe(String(before));

    // The composer says what the run about to start will probably cost, and who pays.
    const estimate = page.getByTestId("cost-estimate");
    await estimate.waitFor();
    expect(await estimate.textContent()).toMatch(
      /^Estimated cost: \d+\.\d\d–\d+\.\d\d credits from your balance$/,
    );
    await screenshot(page, "chat-cost-preview", false);

    const run = await send(page, "Outline a two-day offsite agenda");
    expect(await finished(run)).toBe("completed");
    const after = (await profileOf(owner)).credits_remaining;
    expect(after).toBeLessThan(before);
    await expect
      .poll(() => widget.getByTestId("credit-balance-amount").textContent(), SLOW)
      .toBe(String(after));
    const pool = await api<TWorkspaceCredits>(
      "GET",
      WORKSPACE_CREDIT_ROUTES.credits(teamId),
      owner,
    );
    expect(pool.balance).toBe(0);

    // Leaving the session: the team in view pays again.
    await page.goto("/dashboard");
    await expect.poll(() => widget.textContent(), SLOW).toContain("Team pool");
    expectNoErrors();
    await close();
  }, 150_000);

  it("keeps a personal monthly spending limit in Settings, and a run it refuses says so with the way there", async () => {
    const user = await createUser({ firstName: "Lim", lastName: "Itt" });
    const sessionId = await createSession(user, "Within limits", { coderOnly: true });
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
    const section = page.getByTestId("spending-limit");
    await section.getByTestId("spending-this-month").waitFor();
    expect(await section.getByTestId("spending-this-month").textContent()).toMatch(
      /^0 credits spent in \w+ \d{4}\. No limit\.$/,
    );
    await section.getByLabel("Monthly limit (credits)").fill("0");
    await section.getByRole("button", { name: "Save limit" }).click();
    await expectToast(page, "Your monthly spending limit is 0 credits.");
    const saved = await api<TSpendingLimit>("GET", SPENDING_ROUTES.limit, user);
    expect(saved.monthly_limit_credits).toBe(0);

    // The limit refuses the run before it starts, names itself and leads to Settings.
    await page.goto(`/chat/${sessionId}`);
    await composer(page).fill("Write a CSV parser");
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    await composer(page).press("Enter");
    const error = page.getByTestId("send-error");
    await error.waitFor();
    expect(await error.getByTestId("refusal-title").textContent()).toBe(
      "Your monthly spending limit is reached",
    );
    expect(await error.textContent()).toMatch(
      /Your personal monthly spending limit leaves 0\.00 credits and the smallest step needs \d+\.\d\d\. Raise your limit in Settings to continue\./,
    );
    expect(await page.getByTestId("run").count()).toBe(0);
    await screenshot(page, "chat-limit-refused", false);
    await error.getByRole("link", { name: "Raise your spending limit in Settings" }).click();
    await page.waitForURL("**/settings#spending-limit");
    await section.getByRole("button", { name: "Clear limit" }).click();
    await expectToast(page, "Your monthly spending limit is cleared.");
    expect(
      (await api<TSpendingLimit>("GET", SPENDING_ROUTES.limit, user)).monthly_limit_credits,
    ).toBe(null);

    // Without the limit the same message runs; its spend shows against a new limit.
    await page.goto(`/chat/${sessionId}`);
    expect(await finished(await send(page, "Write a CSV parser"))).toBe("completed");
    await page.goto("/settings");
    await section.getByLabel("Monthly limit (credits)").fill("25");
    await section.getByRole("button", { name: "Save limit" }).click();
    await expectToast(page, "Your monthly spending limit is 25 credits.");
    const limit = await api<TSpendingLimit>("GET", SPENDING_ROUTES.limit, user);
    expect(limit.spent_this_month).toBeGreaterThan(0);
    expect(await section.getByTestId("spending-this-month").textContent()).toContain(
      `of 25 credits spent in`,
    );
    await screenshot(page, "settings-spending-limit", false);
    expectNoErrors([/status of 402/]);
    await close();
  }, 150_000);

  it("lets Bob finish a run under a member cap that covers it but not one step's worst case", async () => {
    const owner = await createUser({ firstName: "Olga", lastName: "Owner" });
    const bob = await createUser({ firstName: "Bob", lastName: "Member" });
    const teamId = await createTeam(owner, "Bob's Team");
    await fundPool(owner, teamId);
    await addMember(owner, teamId, bob);
    // The report's cap of 10 with 1.77 used left 8.23 credits, less than its steps' worst
    // cases together; on the simulator's catalogue prices a run costs about 2 credits and
    // one agent step's worst case (4,096 output tokens) is above 6, so a cap of 5 is the same
    // situation: enough for the run, not for holding any step's worst case.
    const bobId = (await profileOf(bob)).id;
    await api("PUT", WORKSPACE_CREDIT_ROUTES.memberCap(teamId, bobId), owner, {
      monthly_cap_credits: 5,
    });
    const sessionId = await createSession(bob, "Quarterly plan", { workspaceId: teamId });

    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), bob.token);
    await page.goto("/dashboard");
    await switchWorkspace(page, /Bob's Team/);
    await page.goto(`/chat/${sessionId}`);
    await expect
      .poll(() => page.getByTestId("session-workspace").textContent(), SLOW)
      .toBe("Team · Bob's Team");
    const estimate = page.getByTestId("cost-estimate");
    await estimate.waitFor();
    expect(await estimate.textContent()).toMatch(/^Estimated cost: .+ from the team pool/);

    const run = await send(page, "Plan a small product launch for next quarter");
    expect(await finished(run)).toBe("completed");
    expect(await run.getByTestId("run-error").count()).toBe(0);
    const after = await api<TWorkspaceCredits>("GET", WORKSPACE_CREDIT_ROUTES.credits(teamId), bob);
    expect(after.my_spent_this_month).toBeGreaterThan(0);
    expect(after.my_spent_this_month).toBeLessThanOrEqual(5);
    expect(after.balance).toBeCloseTo(100 - after.my_spent_this_month, 2);
    const widget = sidebar(page).getByTestId("credit-balance");
    await expect
      .poll(() => widget.textContent(), SLOW)
      .toContain(`Your cap: ${after.my_spent_this_month} of 5 credits used this month.`);
    await screenshot(page, "chat-team-cap", false);
    expectNoErrors();
    await close();
  }, 150_000);
});

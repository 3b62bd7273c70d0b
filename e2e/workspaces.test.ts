import { readFile } from "node:fs/promises";
import { type TWorkspaceCredits, type TWorkspaceList, WORKSPACE_MESSAGES } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, linkIn, TEST_PASSWORD, type TestUser, waitForEmail } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401, expectToast } from "./support/ui";

/**
 * Team workspaces' browser test (decisions 040, 041): an owner creates a team workspace and fills its pool through the
 * dev checkout, invites a second person through the mailed link (who signs in on the way),
 * both run sessions paid from the pool, the owner sees each member's usage, exports a session
 * as PDF and Markdown, and opens a share link in a signed-out browser.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 }, acceptDownloads: true };
const RUN_TIMEOUT = 90_000;
const TEAM = "Acme Research";
const VIEWER_READ_ONLY = WORKSPACE_MESSAGES.viewerReadOnly;

async function apiAs<T>(user: TestUser, path: string): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function teamOf(user: TestUser): Promise<string> {
  const { workspaces } = await apiAs<TWorkspaceList>(user, "/api/workspaces");
  const team = workspaces.find((workspace) => workspace.name === TEAM);
  if (!team) throw new Error(`${user.email} is not in ${TEAM}`);
  return team.id;
}

async function poolOf(user: TestUser, workspaceId: string): Promise<TWorkspaceCredits> {
  return apiAs<TWorkspaceCredits>(user, `/api/workspaces/${workspaceId}/credits`);
}

function sidebar(page: Page): Locator {
  return page.getByRole("complementary", { name: "Sidebar" });
}

async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A new session in the workspace in view, one task, and its run to the end. */
async function runSession(page: Page, title: string, task: string): Promise<void> {
  await page.goto("/chat?new=1");
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Title", { exact: true }).fill(title);
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(/\/chat\/[\w-]+$/);
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled()).toBe(true);
  await box.fill(task);
  await box.press("Enter");
  const run = page.getByTestId("run").last();
  await run.waitFor();
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
    .toBe("completed");
}

describe("team workspaces", () => {
  it("pools credits for a team, invites by mail, and exports and shares its sessions", async () => {
    const owner = await createUser({ firstName: "Olivia", lastName: "Owner" });
    const member = await createUser({ firstName: "Max", lastName: "Member" });

    // The owner creates the team from the switcher.
    const first = await openPage(browser, desktop);
    const page = first.page;
    await page.goto("/login");
    await signIn(page, owner);
    await page.waitForURL("**/dashboard");
    const switcher = sidebar(page).getByTestId("workspace-switcher");
    await expect.poll(() => switcher.textContent()).toContain("PersonalOnly you");
    await switcher.click();
    await page.getByRole("menuitem", { name: "Create team workspace…" }).click();
    const create = page.getByRole("dialog", { name: "Create team workspace" });
    await create.getByLabel("Workspace name").fill(TEAM);
    await create.getByRole("button", { name: "Create workspace" }).click();
    await expectToast(page, `${TEAM} created`);
    await expect.poll(() => switcher.textContent()).toContain("Team · Owner");
    expect(await sidebar(page).getByTestId("credit-balance").textContent()).toContain("Team pool");
    const teamId = await teamOf(owner);
    expect((await poolOf(owner, teamId)).balance).toBe(0);

    // The switcher lists both workspaces.
    await switcher.click();
    const menu = page.getByRole("menu");
    await menu.getByRole("menuitemradio", { name: /Personal/ }).waitFor();
    expect(await menu.getByRole("menuitemradio").count()).toBe(2);
    await screenshot(page, "workspace-switcher", false);
    await page.keyboard.press("Escape");

    // The pool gets credits through the same checkout as a personal pack (the team screen).
    await page.goto("/team/credits");
    const settings = page.getByTestId("team-panel");
    await settings.waitFor();
    await settings.getByRole("button", { name: /Buy 100 credits for this workspace/ }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\//);
    expect(await page.textContent("body")).toContain("100 credits");
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/api/"));
    await expect.poll(async () => (await poolOf(owner, teamId)).balance).toBe(100);

    // The invitation goes out by mail.
    await page.goto("/team/members");
    await settings.getByLabel("Invite by email").fill(member.email);
    await settings.getByLabel("Role", { exact: true }).selectOption("member");
    await settings.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, `Invitation sent to ${member.email}.`);
    await settings.getByTestId("pending-invitations").getByText(member.email).waitFor();
    const mail = await waitForEmail(member.email, /invited to a team workspace on Cohort/);
    expect(mail.text).toContain('invited you to join the team workspace "Acme Research"');
    const link = linkIn(mail, "/dashboard?invite=");

    // The invited person follows the link signed out: the login comes first, then the invite.
    const second = await openPage(browser, desktop);
    const other = second.page;
    await other.goto(link);
    await other.waitForURL("**/login");
    // The form names the invitation and offers to create the invited address's account; Max
    // has one and signs in.
    await other.getByTestId("invitation-notice").waitFor();
    expect(await other.getByLabel("Email address").inputValue()).toBe(member.email);
    await other.getByRole("button", { name: "Sign in", exact: true }).click();
    await other.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await signIn(other, member);
    const invite = other.getByRole("dialog", { name: `Join ${TEAM} as member?` });
    await invite.waitFor();
    expect(new URL(other.url()).searchParams.get("invite")).not.toBeNull();
    await invite.getByRole("button", { name: "Accept" }).click();
    await expectToast(other, `You joined ${TEAM}.`);
    await expect
      .poll(() => sidebar(other).getByTestId("workspace-switcher").textContent())
      .toContain("Team · Member");

    // Both run a session on the pooled credits; their personal balances stay as they were.
    const profile = () =>
      apiAs<{ user: { credits_remaining: number } }>(owner, "/api/users/profile");
    const personalBefore = await profile();
    await runSession(page, "Owner's market scan", "Summarise the market for recipe apps");
    await runSession(other, "Member's launch plan", "Plan the launch of a recipe app");
    const pool = await poolOf(owner, teamId);
    expect(pool.balance).toBeLessThan(100);
    const personalAfter = await profile();
    expect(personalAfter.user.credits_remaining).toBe(personalBefore.user.credits_remaining);
    await expect
      .poll(() => sidebar(page).getByTestId("credit-balance-amount").textContent())
      .toBe(String(pool.balance));

    // The owner sees each member's use of the pool this month.
    await page.goto("/team/usage");
    const usage = settings.getByTestId("member-usage");
    await usage.waitFor();
    const rows = usage.getByTestId("member-usage-row");
    await expect.poll(() => rows.count()).toBe(2);
    for (const name of ["Olivia Owner", "Max Member"]) {
      const spent = await rows
        .filter({ hasText: name })
        .getByTestId("member-usage-spent")
        .textContent();
      expect(Number.parseFloat(spent ?? "0")).toBeGreaterThan(0);
    }
    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Members" })
      .click();
    await settings
      .getByTestId("workspace-members")
      .getByText("Max Member", { exact: true })
      .waitFor();
    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Audit log" })
      .click();
    await settings.getByTestId("workspace-audit").waitFor();
    await screenshot(page, "workspace-settings", false);

    // In a team, Documents are the team's (decision 065; the personal workspace says "Your").
    await page.goto("/documents");
    await expect
      .poll(() => page.getByTestId("documents-subtitle").textContent())
      .toBe("Your team's source material: searched during runs, cited by passage.");

    // Export the owner's session as PDF and Markdown from the session header's menu.
    await page.goto("/chat");
    await page
      .getByTestId("session-list")
      .getByRole("link", { name: /Owner's market scan/ })
      .click();
    await page.getByRole("heading", { level: 1, name: "Owner's market scan" }).waitFor();
    for (const format of [
      {
        item: /PDF/,
        check: (bytes: Buffer) => expect(bytes.subarray(0, 5).toString()).toBe("%PDF-"),
      },
      {
        item: /Markdown/,
        check: (bytes: Buffer) => expect(bytes.toString("utf8")).toContain("Owner's market scan"),
      },
    ]) {
      await page.getByRole("button", { name: "Session actions" }).click();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("menuitem", { name: format.item }).click(),
      ]);
      format.check(await readFile(await download.path()));
    }

    // A share link opens in a browser that is signed in nowhere.
    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: /Share/ }).click();
    const share = page.getByRole("dialog", { name: "Share read-only" });
    await share.getByRole("button", { name: "Create link" }).click();
    const shareUrl = await share.getByLabel("Your link is ready").inputValue();
    expect(shareUrl).toMatch(/\/share\//);
    const anonymous = await openPage(browser, desktop);
    await anonymous.page.goto(shareUrl);
    await anonymous.page.getByText("Owner's market scan").first().waitFor();
    expect(await anonymous.page.getByTestId("workspace-switcher").count()).toBe(0);

    // The owner finds every link of the team in one list and revokes it there (decision 051).
    await page.goto("/team/settings");
    const listed = settings
      .getByTestId("workspace-share")
      .filter({ hasText: "Owner's market scan" });
    await expect.poll(() => listed.getAttribute("data-status")).toBe("active");
    expect(await listed.textContent()).toContain("Active · 1 view");
    await listed.getByRole("button", { name: "Revoke" }).click();
    await expectToast(page, "Link revoked: it no longer opens");
    await expect.poll(() => listed.getAttribute("data-status")).toBe("revoked");
    await anonymous.page.reload();
    await anonymous.page.getByTestId("share-not-found").waitFor();

    // A lower role and a removal take effect at once on the member's open page.
    await page.goto("/team/members");
    const maxRow = settings.getByTestId("workspace-member").filter({ hasText: "Max Member" });
    await maxRow.getByLabel("Role of Max Member").selectOption("viewer");
    await expectToast(page, "Max Member is now viewer.");
    const box = other.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.getAttribute("placeholder")).toBe(VIEWER_READ_ONLY);
    expect(await box.isDisabled()).toBe(true);
    await expect
      .poll(() => sidebar(other).getByTestId("workspace-switcher").textContent())
      .toContain("Team · Viewer");
    await maxRow.getByRole("button", { name: "Remove Max Member" }).click();
    await maxRow.getByRole("button", { name: "Confirm removing Max Member" }).click();
    await expectToast(page, "Max Member was removed.");
    await expectToast(other, `You were removed from ${TEAM}.`);
    await expect
      .poll(() => sidebar(other).getByTestId("workspace-switcher").textContent())
      .toContain("PersonalOnly you");

    first.expectNoErrors();
    // The removed member's page may still ask for the team's lists as the removal lands: those
    // answer 404 (anything not visible is 404), which is the removal working.
    second.expectNoErrors([EXPECTED_401, /status of 404/]);
    anonymous.expectNoErrors([EXPECTED_401, /status of 404/]);
    await Promise.all([first.close(), second.close(), anonymous.close()]);
  }, 360_000);
});

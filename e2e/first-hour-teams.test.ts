import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  linkIn,
  signInContext,
  TEST_PASSWORD,
  type TestUser,
  uniqueEmail,
  waitForEmail,
} from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { acceptAgreementInModal, EXPECTED_401, expectToast, switchToWorkspace } from "./support/ui";

/**
 * A new user's first hour, teams (decision 057): administration on its own screen with tabs, an audit log that reads like
 * sentences, an invitation link that a signed-out newcomer sees on the sign-up form (who
 * invited whom, to which workspace, the address filled in), and acceptance only once the
 * address is confirmed.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const TEAM = "Acme Research";

async function createTeam(owner: TestUser): Promise<string> {
  const response = await fetch(`${baseURL()}/api/workspaces`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: TEAM }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { workspace: { id: string } }).workspace.id;
}

describe("team administration", () => {
  it("runs a team from its own screen, invites a newcomer, and logs it in sentences", async () => {
    const owner = await createUser({ firstName: "Olivia", lastName: "Owner" });
    await createTeam(owner);
    const first = await openPage(browser, desktop);
    const { page } = first;
    await signInContext(page.context(), owner.token);
    await switchToWorkspace(page, TEAM);

    // Settings no longer carries the team's administration; it points to the team screen.
    await page.goto("/settings");
    const card = page.getByTestId("workspace-settings");
    await card.waitFor();
    expect(await page.getByRole("heading", { name: "Audit log" }).count()).toBe(0);
    await card.getByRole("link", { name: "Manage the team" }).click();
    await page.waitForURL("**/team");
    await page.getByRole("heading", { level: 1, name: TEAM }).waitFor();
    const tabs = page.getByRole("navigation", { name: "Team sections" }).getByRole("link");
    expect(await tabs.allTextContents()).toEqual([
      "Members",
      "Credits and caps",
      "Usage",
      "Audit log",
      "Settings",
    ]);
    const panel = page.getByTestId("team-panel");

    // Credits and caps: the pool is filled through the checkout.
    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Credits and caps" })
      .click();
    await page.waitForURL("**/team/credits");
    await panel.getByRole("button", { name: /Buy 100 credits for this workspace/ }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\//);
    const checkoutId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/api/"));

    // Members: an invitation to someone without an account yet.
    await page.goto("/team/members");
    const newcomer = uniqueEmail("nina");
    await panel.getByLabel("Invite by email").fill(newcomer);
    await panel.getByLabel("Role", { exact: true }).selectOption("member");
    await panel.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, `Invitation sent to ${newcomer}.`);
    await screenshot(page, "team-members");
    const mail = await waitForEmail(newcomer, /invited to a team workspace/);
    const link = linkIn(mail, "/dashboard?invite=");

    // The newcomer opens the link signed out: the sign-up form says who invited whom to what.
    const second = await openPage(browser, desktop);
    const other = second.page;
    await other.goto(link);
    await other.waitForURL("**/login");
    const notice = other.getByTestId("invitation-notice");
    await notice.waitFor();
    expect(await notice.locator("p").first().textContent()).toBe(
      `Olivia Owner invited ${newcomer} to the ${TEAM} workspace.`,
    );
    await other.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();
    expect(await other.getByLabel("Email address").inputValue()).toBe(newcomer);
    await screenshot(other, "login-invitation");
    await other.getByLabel("First Name").fill("Nina");
    await other.getByLabel("Last Name").fill("New");
    await other.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await other.getByRole("button", { name: "Create account" }).click();
    await acceptAgreementInModal(other);

    // Back on the invitation: not before the address is confirmed.
    const unconfirmed = other.getByTestId("invitation-unconfirmed");
    await unconfirmed.waitFor();
    expect(await unconfirmed.textContent()).toBe(
      `Confirm ${newcomer} first: open the link in the email we sent you, then accept the invitation.`,
    );
    const dialog = other.getByRole("dialog", { name: `Join ${TEAM} as member?` });
    expect(await dialog.getByRole("button", { name: "Accept" }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Close" }).last().click();
    const confirm = await waitForEmail(newcomer, /confirm your email/i);
    await other.goto(linkIn(confirm, "/verify-email?token="));
    await other.getByText("Your email address is verified").waitFor();
    await other.goto(link);
    await dialog.getByRole("button", { name: "Accept" }).click();
    await expectToast(other, `You joined ${TEAM}.`);

    // A cap for the newcomer, then the audit log in sentences.
    await page.goto("/team/credits");
    await panel
      .getByTestId("member-usage-row")
      .filter({ hasText: "Nina New" })
      .waitFor({ timeout: 15_000 });
    const ninaRow = panel.getByTestId("member-usage-row").filter({ hasText: "Nina New" });
    await ninaRow.getByLabel("Monthly cap of Nina New (credits; empty for no cap)").fill("10");
    await ninaRow.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Nina New's monthly cap is 10 credits.");

    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Audit log" })
      .click();
    const sentences = panel.getByTestId("audit-sentence");
    await expect.poll(() => sentences.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(6);
    const lines = await sentences.allTextContents();
    const ending = checkoutId
      .replace(/[^0-9a-z]/gi, "")
      .slice(-4)
      .toUpperCase();
    expect(lines).toEqual([
      "Olivia Owner set Nina New's monthly cap to 10 credits",
      "Nina New joined as a member",
      `Nina New accepted the invitation sent to ${newcomer}`,
      `Olivia Owner invited ${newcomer} as a member`,
      `Olivia Owner added 100 credits to the pool (checkout ending ${ending})`,
      `Olivia Owner created the workspace "${TEAM}"`,
    ]);
    expect(lines.join("\n")).not.toMatch(/\b(from|to): /);
    await screenshot(page, "team-audit-log");

    // Usage reads the caps; Settings holds the workspace's own actions.
    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Usage" })
      .click();
    await panel.getByRole("heading", { name: /^Usage this month/ }).waitFor();
    expect(
      await panel.getByTestId("member-usage-row").filter({ hasText: "Nina New" }).textContent(),
    ).toContain("10 credits");
    await page
      .getByRole("navigation", { name: "Team sections" })
      .getByRole("link", { name: "Settings" })
      .click();
    await panel.getByRole("heading", { name: "Manage workspace" }).waitFor();

    // A token that is not an invitation's shows nothing.
    const bogus = await fetch(`${baseURL()}/api/invitations/not-a-token/public`);
    expect(bogus.status).toBe(404);

    first.expectNoErrors();
    second.expectNoErrors([EXPECTED_401, /status of 403/]);
    await Promise.all([first.close(), second.close()]);
  }, 240_000);
});

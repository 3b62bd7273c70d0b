import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, logInViaApi, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * Account support and workspaces in the admin area (decision 056): what an operator does for
 * a user who wrote in, and the team workspaces with their members, pool and caps.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const WIDE = { viewport: { width: 1280, height: 900 } };

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

async function userIdOf(token: string): Promise<string> {
  return (await api<{ user: { id: string } }>("GET", "/api/users/profile", token)).user.id;
}

async function adminPage() {
  const guarded = await openPage(browser, WIDE);
  await signInContext(guarded.page.context(), await adminToken());
  return guarded;
}

describe("account support in the admin area", () => {
  it("resends the verification email, marks the address verified and sends a password reset", async () => {
    const user = await createUser({ firstName: "Vera", verified: false });
    const id = await userIdOf(user.token);
    const { page, expectNoErrors, close } = await adminPage();
    await page.goto(`/admin/users/${id}`);
    await page.getByRole("heading", { level: 1, name: user.email }).waitFor();
    const support = page.getByTestId("account-support");
    expect(await support.getByText(`${user.email} is not verified yet`).count()).toBe(1);

    await support.getByRole("button", { name: "Resend verification email" }).click();
    await expectToast(page, `A new verification link was sent to ${user.email}.`);

    await support.getByLabel("Reason for marking it verified").fill("Confirmed by phone");
    await screenshot(page, "admin-account-support");
    await support.getByRole("button", { name: "Mark email verified" }).click();
    await expectToast(page, `${user.email} is now verified.`);
    await expect.poll(() => page.getByTestId("user-profile").textContent()).toContain("Verified");
    await support.getByText(`${user.email} is verified.`).waitFor();
    expect(await support.getByRole("button", { name: "Resend verification email" }).count()).toBe(
      0,
    );

    await support.getByRole("button", { name: "Send password reset" }).click();
    await expectToast(page, `A password reset link was sent to ${user.email}.`);

    const audit = page.getByTestId("audit-table");
    await expect.poll(() => audit.locator("tbody tr").allTextContents()).toHaveLength(3);
    const actions = await audit.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(actions).toEqual([
      "Password reset sent",
      "Email marked verified",
      "Verification email sent",
    ]);
    expectNoErrors();
    await close();
  });

  it("deletes an account after a reason and a second click, and the user is gone", async () => {
    const user = await createUser({ firstName: "Gone" });
    const id = await userIdOf(user.token);
    const { page, expectNoErrors, close } = await adminPage();
    await page.goto(`/admin/users/${id}`);
    const support = page.getByTestId("account-support");
    await support.getByLabel("Reason for deleting").fill("Asked by email");
    await support.getByRole("button", { name: "Delete account" }).click();
    const confirm = support.getByRole("button", { name: `Yes, delete ${user.email}` });
    await confirm.waitFor();
    await screenshot(page, "admin-delete-account");
    await confirm.click();
    await expectToast(page, `The account of ${user.email} and its data were deleted.`);
    await page.waitForURL("**/admin/users");
    const signIn = await fetch(`${baseURL()}/api/users/profile`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(signIn.status).toBe(401);
    await expect(logInViaApi(user.email, user.password)).rejects.toThrow(/answered 401/);
    expectNoErrors();
    await close();
  });
});

describe("workspaces in the admin area", () => {
  it("shows each team with its members, roles, caps, pool and spend", async () => {
    const owner = await createUser({ firstName: "Olivia", lastName: "Owner" });
    const name = `Lending desk ${Date.now()}`;
    await api("POST", "/api/workspaces", owner.token, { name });
    const { page, expectNoErrors, close } = await adminPage();
    await page.goto("/admin/dashboard");
    await page.getByTestId("provider-health").waitFor();
    expect(
      await page.getByTestId("provider-health").getByRole("columnheader").allTextContents(),
    ).toContain("On users' keys");

    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Workspaces" })
      .click();
    await page.getByRole("heading", { level: 1, name: "Workspaces" }).waitFor();
    await page.getByLabel("Search workspaces").fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const card = page.getByRole("listitem", { name });
    await card.waitFor();
    const month = new Date().toLocaleDateString("en-US", {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    });
    expect(await card.getByTestId("admin-workspace-figures").textContent()).toBe(
      `Members1Pool0 creditsSpent in ${month}0 credits`,
    );
    expect(await card.locator("tbody tr").allTextContents()).toEqual([
      `Olivia Owner${owner.email}OwnerNo cap0 credits0`,
    ]);
    await screenshot(page, "admin-workspaces");
    expectNoErrors();
    await close();
  });
});

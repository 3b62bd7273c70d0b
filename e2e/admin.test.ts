import { AUTH_MESSAGES } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401, expectToast } from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the admin area", () => {
  it("signs the admin in to /admin/dashboard with the dev outbox and its working links", async () => {
    const user = await createUser({ firstName: "Outbox" });
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await page.goto("/admin/dashboard");
    await page.waitForURL("**/admin/login");
    await page.getByLabel("Email address").fill(inject("adminEmail"));
    await page.getByLabel("Password", { exact: true }).fill(inject("adminPassword"));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/admin/dashboard");
    await page.getByRole("heading", { level: 1, name: "Admin dashboard" }).waitFor();

    const outbox = page.getByTestId("outbox");
    const message = outbox
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
    expect(await page.getByRole("form", { name: "Publish agreement version" }).count()).toBe(1);
    await screenshot(page, "admin-dashboard", false);
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
});

import { ACCOUNT_DATA_MESSAGES, AUTH_MESSAGES, accountDataFilename } from "@cohort/contracts";
import JSZip from "jszip";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401, expectToast } from "./support/ui";

/**
 * Settings → Your data in a real browser: the zip download (its name and content) and the
 * account deletion through the dialog, after which the browser is signed out and the
 * password opens nothing.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("settings: your data", () => {
  it("downloads my data and deletes the account through the dialog", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 1000 },
      acceptDownloads: true,
    });
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Your data" });
    await section.waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "settings-your-data", false);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      section.getByRole("link", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(accountDataFilename());
    const path = await download.path();
    const { readFile } = await import("node:fs/promises");
    const zip = await JSZip.loadAsync(await readFile(path));
    const profile = JSON.parse((await zip.file("profile.json")?.async("string")) ?? "{}");
    expect(profile.profile.email).toBe(user.email);
    expect(zip.file("README.txt")).not.toBeNull();

    await section.getByRole("button", { name: "Delete account…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    const confirmButton = dialog.getByRole("button", { name: "Delete my account" });
    expect(await confirmButton.isDisabled()).toBe(true);

    // A wrong password is refused in the dialog; nothing is deleted.
    await dialog.getByLabel("Your password").fill("not-the-password");
    await dialog.getByLabel("Type DELETE to confirm").fill("DELETE");
    await confirmButton.click();
    await dialog.getByText(ACCOUNT_DATA_MESSAGES.wrongPassword).waitFor();
    await screenshot(page, "delete-account-dialog", false);

    await dialog.getByLabel("Your password").fill(user.password);
    await page.mouse.move(0, 0);
    await screenshot(page, "delete-account-ready", false);
    await confirmButton.click();
    await page.waitForURL((url) => url.pathname === "/");
    await expectToast(page, ACCOUNT_DATA_MESSAGES.deleted);
    // It stays there: the settings page's guard, seeing the sign-out before the router had
    // moved on, once sent the browser on to /login (decision 096).
    await page.getByRole("link", { name: "Get Started" }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await screenshot(page, "account-deleted", false);
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();

    // Signed out: /settings sends to /login, and the old password opens nothing.
    await page.goto("/settings");
    await page.waitForURL("**/login");
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectToast(page, AUTH_MESSAGES.invalidCredentials);
    expect(new URL(page.url()).pathname).toBe("/login");
    // The 403 is the wrong password; the 400 is this tab's socket polling after the server
    // dropped the deleted account's sockets.
    expectNoErrors([EXPECTED_401, /status of 403/, /status of 400/]);
    await close();
  });
});

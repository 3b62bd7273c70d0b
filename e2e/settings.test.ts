import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, logInViaApi, signInContext } from "./support/accounts";
import { launchBrowser, openPage } from "./support/browser";
import { expectToast } from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("settings", () => {
  it("saves the profile and signs out another session", async () => {
    const user = await createUser();
    await logInViaApi(user.email, user.password);
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();

    await page.getByLabel("Display name").fill("Countess Ada");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expectToast(page, "Profile updated");
    await expect
      .poll(() => page.getByTestId("shell-display-name").first().textContent())
      .toBe("Countess Ada");

    const sessions = page.getByTestId("sessions-list");
    await sessions.waitFor();
    expect(await sessions.locator("li").count()).toBe(2);
    expect(await sessions.getByText("This device").count()).toBe(1);
    const other = sessions.locator("li").filter({ hasNotText: "This device" });
    await other.getByRole("button", { name: /^Sign out/ }).click();
    await expect.poll(() => sessions.locator("li").count()).toBe(1);
    expectNoErrors();
    await close();
  });
});

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
  it("saves the profile and signs out another device", async () => {
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

    await page.getByRole("heading", { level: 2, name: "Where you're signed in" }).waitFor();
    const signIns = page.getByTestId("sign-ins-list");
    await signIns.waitFor();
    expect(await signIns.locator("li").count()).toBe(2);
    expect(await signIns.getByText("This device").count()).toBe(1);
    const other = signIns.locator("li").filter({ hasNotText: "This device" });
    await other.getByRole("button", { name: /^Sign out/ }).click();
    await expect.poll(() => signIns.locator("li").count()).toBe(1);
    expectNoErrors();
    await close();
  });
});

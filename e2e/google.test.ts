import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, openPage } from "./support/browser";
import { acceptAgreementFromOverlay, EXPECTED_401, expectToast } from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("Google sign-in", () => {
  it("signs in through the OpenID Connect provider and lands on the dashboard", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 860 },
    });
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Logged in with Google successfully!");
    // A first Google sign-in has not accepted the agreement yet.
    await acceptAgreementFromOverlay(page);
    await page
      .getByRole("heading", { level: 1, name: `Welcome, ${inject("googleName")}` })
      .waitFor();
    expect(await page.getByTestId("shell-display-name").first().textContent()).toBe(
      inject("googleName"),
    );
    // The success toast belongs to the sign-in, not to every later page load.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
    expect(
      await page.locator("ol > li").getByText("Logged in with Google successfully!").count(),
    ).toBe(0);
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("says 'Google login failed' when the flow comes back with an error", async () => {
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/login?error=google");
    await expectToast(page, "Google login failed");
    await page.waitForURL((url) => url.pathname === "/login" && url.search === "");
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

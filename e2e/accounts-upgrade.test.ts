import { AGREEMENT_MESSAGES, AUTH_MESSAGES } from "@cohort/contracts";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { acceptAgreementInModal, EXPECTED_401, expectToast } from "./support/ui";

/** Accounts and the upgrade path: what a person sees and can do in the browser. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 860 } };

async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error("an element to compare is not on screen");
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

describe("sign-up with an address that already has an account", () => {
  it("says so before the agreement and signs in instead with the email kept", async () => {
    const existing = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await page.goto("/login?mode=signup");
    await page.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();
    await page.getByLabel("First Name").fill("Ada");
    await page.getByLabel("Last Name").fill("Again");
    await page.getByLabel("Email address").fill(existing.email.toUpperCase());
    await page.getByLabel("Password", { exact: true }).fill("a brand new passphrase");
    await page.getByRole("button", { name: "Create account" }).click();

    const notice = page.getByTestId("email-taken");
    await notice.getByText(AUTH_MESSAGES.emailTaken).waitFor();
    // Told before the agreement: no modal was opened, and no toast repeats the notice.
    expect(await page.getByRole("dialog", { name: "Cohort User Agreement" }).count()).toBe(0);
    expect(await page.locator("ol > li").getByText(AUTH_MESSAGES.emailTaken).count()).toBe(0);
    expect(await page.getByLabel("Email address").getAttribute("aria-describedby")).toBe(
      "email-taken",
    );
    await screenshot(page, "signup-email-taken", false);

    await notice.getByRole("button", { name: "Sign in instead" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    expect(await page.getByLabel("Email address").inputValue()).toBe(existing.email.toUpperCase());
    const password = page.getByLabel("Password", { exact: true });
    expect(await password.inputValue()).toBe("");
    await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
    await password.fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Welcome back!");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("goes on to the agreement for a free address, and Escape asks before discarding it", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    const email = uniqueEmail("esc");
    await page.goto("/login?mode=signup");
    await page.getByLabel("First Name").fill("Grace");
    await page.getByLabel("Last Name").fill("Hopper");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    const dialog = page.getByRole("dialog", { name: "Cohort User Agreement" });
    await dialog.waitFor();

    // Escape asks; the safe answer has the focus and keeps the modal.
    await page.keyboard.press("Escape");
    const question = dialog.getByRole("alertdialog", { name: "Discard your sign-up?" });
    await question.waitFor();
    const keep = question.getByRole("button", { name: "Keep reading" });
    await expect.poll(() => keep.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, "agreement-discard-question", false);
    await keep.click();
    expect(await question.count()).toBe(0);
    expect(await dialog.getByRole("button", { name: "I Agree" }).count()).toBe(1);

    // A second Escape while asking also keeps reading.
    await page.keyboard.press("Escape");
    await question.waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => question.count()).toBe(0);
    expect(await dialog.isVisible()).toBe(true);

    // Discarding closes the modal; the details stay in the form.
    await page.keyboard.press("Escape");
    await question.getByRole("button", { name: "Discard" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(AGREEMENT_MESSAGES.declineNotAllowed).waitFor();
    expect(await page.getByLabel("Email address").inputValue()).toBe(email);

    await page.getByRole("button", { name: "Create account" }).click();
    await acceptAgreementInModal(page);
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Account created successfully!");
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

describe("failures on the login screen", () => {
  it("show one toast, clear of the button that caused it, which goes once sign-in succeeds", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 360, height: 640 },
      isMobile: true,
    });
    await page.goto("/login");
    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    const submit = page.getByRole("button", { name: "Sign in", exact: true });
    // The button at the bottom edge, where a bottom toast would sit on it.
    await submit.evaluate((button) => button.scrollIntoView({ block: "end" }));
    await submit.click();

    const failure = page.locator("ol > li").filter({ hasText: AUTH_MESSAGES.invalidCredentials });
    await failure.waitFor();
    expect(await overlaps(failure, submit)).toBe(false);
    // One surface: the toast, not also a message in the form.
    expect(await page.locator("form").getByText(AUTH_MESSAGES.invalidCredentials).count()).toBe(0);
    await screenshot(page, "login-failure-toast", false);

    // A second failure replaces the first instead of stacking.
    await submit.click();
    await expect.poll(() => failure.count()).toBe(1);

    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await submit.click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Welcome back!");
    await expect.poll(() => failure.count()).toBe(0);
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

describe("the upgrade path", () => {
  it("shows a visitor the Free plan and the spec's labels on /pricing", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await page.goto("/pricing");
    const free = page.getByTestId("plan-Free");
    await free.waitFor();
    expect(await free.textContent()).toContain("$0.00");
    await expect.poll(() => free.textContent()).toContain("50 welcome credits");
    expect(await free.getByRole("link", { name: "Create free account" }).getAttribute("href")).toBe(
      "/login?mode=signup",
    );
    for (const name of ["Pro", "Pro+"]) {
      const button = page.getByTestId(`plan-${name}`).getByRole("button", { name: "Coming Soon" });
      expect(await button.isDisabled()).toBe(true);
    }
    // What is not built yet says so, beside the spec's words; what is built does not.
    const proPlus = page.getByTestId("plan-Pro+");
    expect(await proPlus.getByText("Workspace saving").count()).toBe(1);
    expect(await proPlus.getByTestId("planned-feature").count()).toBe(0);
    const pro = page.getByTestId("plan-Pro");
    expect(await pro.getByTestId("planned-feature").textContent()).toBe("Not available yet");
    const header = page.getByRole("banner");
    expect(await header.getByRole("link", { name: "Open app" }).count()).toBe(0);
    expect(await header.getByRole("link", { name: "Get Started" }).count()).toBe(1);
    await screenshot(page, "pricing-visitor");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("lets a signed-in user upgrade from /pricing through the checkout, back to /billing", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);

    // The landing page keeps the spec's labels, signed in or not; the header opens the app.
    await page.goto("/");
    const header = page.getByRole("banner");
    await header.getByRole("link", { name: "Open app" }).waitFor();
    expect(await header.getByRole("link", { name: "Open app" }).getAttribute("href")).toBe(
      "/dashboard",
    );
    expect(await header.getByRole("link", { name: "Sign in" }).count()).toBe(0);
    const landingPro = page.locator("#pricing").getByTestId("plan-Pro");
    expect(await landingPro.getByRole("button", { name: "Coming Soon" }).isDisabled()).toBe(true);

    await page.goto("/pricing");
    const free = page.getByTestId("plan-Free");
    expect(await free.getByRole("button", { name: "Current plan" }).isDisabled()).toBe(true);
    const pro = page.getByTestId("plan-Pro");
    const upgrade = pro.getByRole("button", { name: "Upgrade to Pro, billed monthly" });
    await expect.poll(() => upgrade.isEnabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Coming Soon" }).count()).toBe(0);
    await screenshot(page, "pricing-signed-in");

    await upgrade.click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\//);
    expect(await page.textContent("body")).toContain("Pro plan, billed monthly");
    await page.getByRole("button", { name: "Pay $19.99" }).click();
    await page.waitForURL((url) => url.pathname === "/billing" && url.search === "");
    const sidebar = page.getByRole("complementary", { name: "Sidebar" });
    await sidebar.getByText("CoChat Unlimited").waitFor();
    expect(await sidebar.getByTestId("shell-tier").textContent()).toBe("Pro");

    // Back on /pricing the plan bought is the current one, and Free is included in it.
    await page.goto("/pricing");
    await expect.poll(() => pro.getByRole("button", { name: "Current plan" }).count()).toBe(1);
    expect(await free.getByRole("button", { name: "Included in your plan" }).count()).toBe(1);
    expectNoErrors();
    await close();
  });
});

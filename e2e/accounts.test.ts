import { AUTH_MESSAGES } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  linkIn,
  signInContext,
  TEST_PASSWORD,
  uniqueEmail,
  waitForEmail,
} from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import {
  acceptAgreementInModal,
  EXPECTED_401,
  expectToast,
  horizontalOverflow,
} from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 860 } };

describe("sign-up, sign-out and sign-in", () => {
  it("creates an account through the agreement modal, then signs out and in again", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    const email = uniqueEmail("signup");

    await page.goto("/login");
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    expect(
      await page.getByRole("link", { name: "Forgot your password?" }).getAttribute("href"),
    ).toBe("/forgot-password");
    expect(await page.getByRole("button", { name: "Continue with Google" }).count()).toBe(1);
    expect(await page.getByText("Password must be at least 6 characters long.").count()).toBe(1);
    for (const model of ["CoReason", "CoDepth", "CoQuick", "CoLogic", "CoChat", "CoVision"]) {
      expect(await page.getByRole("complementary").getByText(model, { exact: true }).count()).toBe(
        1,
      );
    }
    const emailInput = page.getByLabel("Email address");
    expect(await emailInput.getAttribute("type")).toBe("email");
    expect(await emailInput.getAttribute("required")).not.toBeNull();
    expect(
      await page.getByLabel("Password", { exact: true }).getAttribute("required"),
    ).not.toBeNull();
    await screenshot(page, "login");

    await page.getByRole("button", { name: "Create your account" }).click();
    await page.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();
    // Sign-up mode: the names are required and the forgot link is gone.
    expect(await page.getByLabel("First Name").getAttribute("required")).not.toBeNull();
    expect(await page.getByLabel("Last Name").getAttribute("required")).not.toBeNull();
    expect(await page.getByRole("link", { name: "Forgot your password?" }).count()).toBe(0);

    await page.getByLabel("First Name").fill("Ada");
    await page.getByLabel("Last Name").fill("Lovelace");
    await emailInput.fill(email);
    const password = page.getByLabel("Password", { exact: true });
    await password.fill(TEST_PASSWORD);
    expect(await password.getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await password.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide password" }).click();
    expect(await password.getAttribute("type")).toBe("password");
    await screenshot(page, "signup");

    await page.getByRole("button", { name: "Create account" }).click();
    const dialog = page.getByRole("dialog", { name: "Cohort User Agreement" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("agreement-version").textContent()).toMatch(/^Version \S+/);
    expect(await dialog.getByTestId("agreement-effective-date").textContent()).toMatch(
      /^Effective /,
    );
    // The seeded version does not allow declining.
    expect(await dialog.getByRole("button", { name: "Decline" }).count()).toBe(0);
    await screenshot(page, "agreement-modal", false);
    await acceptAgreementInModal(page);

    await page.waitForURL("**/dashboard");
    await expectToast(page, "Account created successfully!");
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
    expect(
      await page.getByRole("heading", { name: "Please verify your email address" }).count(),
    ).toBe(1);
    // The welcome credits wait for a confirmed address, and the banner says so.
    await page.getByText("and receive your 50 welcome credits").waitFor();
    expect(await page.getByRole("button", { name: "Resend email" }).count()).toBe(1);
    expect(await page.getByTestId("shell-tier").textContent()).toBe("Free");
    expect(await page.getByText("CoChat Locked").count()).toBe(1);
    expect(
      await page.getByRole("link", { name: "Upgrade to unlock CoChat" }).getAttribute("href"),
    ).toBe("/pricing");
    expect(
      await page
        .getByRole("navigation", { name: "App" })
        .getByRole("link", { name: "Dashboard" })
        .getAttribute("aria-current"),
    ).toBe("page");
    // Only non-secret state in web storage: a marker and the public profile.
    const stored = await page.evaluate(() => ({
      authToken: localStorage.getItem("authToken"),
      profile: JSON.parse(localStorage.getItem("userProfile") ?? "null") as {
        email?: string;
      } | null,
      cookies: document.cookie,
    }));
    expect(stored.authToken).toBe("cookie-sign-in");
    expect(stored.profile?.email).toBe(email);
    expect(stored.cookies).not.toContain("cohort_session");
    await screenshot(page, "dashboard");
    await page.getByRole("button", { name: "Resend email" }).click();
    await expectToast(page, `We have sent a new verification link to ${email}.`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/login");
    await expectToast(page, "Logged out successfully");
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();

    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectToast(page, AUTH_MESSAGES.invalidCredentials);
    expect(new URL(page.url()).pathname).toBe("/login");

    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Welcome back!");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("sends a signed-out visitor of a protected route to /login", async () => {
    const { page, expectNoErrors, close } = await openPage(browser);
    for (const path of ["/dashboard", "/settings"]) {
      await page.goto(path);
      await page.waitForURL("**/login");
      await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    }
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("sends a signed-in visitor of /login on to the dashboard", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser);
    await signInContext(page.context(), user.token);
    await page.goto("/login");
    await page.waitForURL("**/dashboard");
    await page.getByRole("heading", { level: 1, name: `Welcome, ${user.displayName}` }).waitFor();
    expectNoErrors();
    await close();
  });
});

describe("forgotten password", () => {
  it("emails a reset link to the dev outbox, resets the password and signs in with it", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL("**/forgot-password");
    // The URL changes before the lazily loaded screen renders; until then "Email address" is
    // still the sign-in form's field.
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await page.getByLabel("Email address").fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page
      .getByText(AUTH_MESSAGES.forgotPassword)
      .waitFor({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\nPage said: ${await page.locator("main").textContent()}`);
      });

    const email = await waitForEmail(user.email, /reset/i);
    const link = linkIn(email, "/reset-password?token=");
    expect(new URL(link).origin).toBe(new URL(page.url()).origin);
    await page.goto(link);
    const newPassword = "a-brand-new-passphrase-9";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill("something-else-entirely");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByText("The two passwords do not match.").waitFor();
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL("**/login");
    await expectToast(page, "Your password has been reset");

    await page.getByLabel("Email address").fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Welcome back!");

    // The link works once.
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("yet-another-passphrase-1");
    await page.getByLabel("Confirm new password").fill("yet-another-passphrase-1");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.locator("[aria-live] p").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/reset-password");
    expectNoErrors([EXPECTED_401, /status of 400/]);
    await close();
  });

  it("verifies the email address from the emailed link", async () => {
    const user = await createUser({ verified: false });
    const email = await waitForEmail(user.email, /confirm your email/i);
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto(linkIn(email, "/verify-email?token="));
    await page.getByText("Your email address is verified").waitFor();
    expectNoErrors();
    await close();
  });
});

describe("small screens", () => {
  it("fits /login on a 360 px phone", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    await page.goto("/login");
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "login-mobile");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("opens the app shell's sidebar as a drawer on a 360 px phone", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    await signInContext(page.context(), user.token);
    await page.goto("/dashboard");
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Open navigation" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await drawer.waitFor();
    for (const label of [
      "Dashboard",
      "Cohort Chat",
      "CoChat",
      "Billing",
      "Documents",
      "Settings",
    ]) {
      expect(await drawer.getByRole("link", { name: label, exact: true }).count()).toBe(1);
    }
    expect(await drawer.getByRole("button", { name: "Sign out" }).count()).toBe(1);
    await screenshot(page, "app-shell-drawer", false);
    await drawer.getByRole("link", { name: "Settings", exact: true }).click();
    await page.waitForURL("**/settings");
    await drawer.waitFor({ state: "detached" });
    expectNoErrors();
    await close();
  });
});

import type { Page } from "playwright-core";
import { expect } from "vitest";
import { linkIn, TEST_PASSWORD, uniqueEmail, waitForEmail } from "./accounts";

/**
 * The browser logs every 401 answer as a failed resource. Signed-out visitors of auth-aware
 * pages get exactly that from the sign-in check (GET /api/users/profile), and a wrong
 * password from the login call; nothing else may fail.
 */
export const EXPECTED_401 = /Failed to load resource: the server responded with a status of 401/;

/** Waits until a toast with this text (part of its title) is on screen. */
export async function expectToast(page: Page, text: string): Promise<void> {
  // Radix renders each toast as an <li> of the viewport's <ol>.
  await page.locator("ol > li").getByText(text).first().waitFor();
}

/**
 * A first sign-in through a provider: the blocking overlay asks for the agreement; review it,
 * accept it, and see the confirmation.
 */
export async function acceptAgreementFromOverlay(page: Page): Promise<void> {
  const overlay = page.getByRole("alertdialog", { name: "Agreement Acceptance Required" });
  await overlay.waitFor();
  await overlay.getByRole("button", { name: "Review Agreement" }).click();
  await acceptAgreementInModal(page);
  await expectToast(page, "Agreement accepted successfully");
}

/** The agreement modal of the route table: scroll to the end, tick, 'I Agree'. */
export async function acceptAgreementInModal(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Cohort User Agreement" });
  await dialog.waitFor();
  const checkbox = dialog.getByRole("checkbox");
  const agree = dialog.getByRole("button", { name: "I Agree" });
  expect(await checkbox.isDisabled()).toBe(true);
  expect(await agree.isDisabled()).toBe(true);
  await dialog.getByTestId("agreement-scroll").evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  // Enabled by the scroll handler: a second on a busy machine is not always enough.
  await expect.poll(() => checkbox.isEnabled(), { timeout: 10_000 }).toBe(true);
  expect(await agree.isDisabled()).toBe(true);
  await checkbox.check();
  expect(await agree.isEnabled()).toBe(true);
  await agree.click();
}

export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * A new user as a person makes one: the sign-up form, the agreement, then the emailed link
 * that confirms the address (the welcome credits come with it). Returns the address.
 */
export async function signUpThroughTheUi(
  page: Page,
  person: { prefix: string; firstName: string; lastName: string },
): Promise<string> {
  const email = uniqueEmail(person.prefix);
  await page.goto("/login");
  await page.getByRole("button", { name: "Create your account" }).click();
  await page.getByLabel("First Name").fill(person.firstName);
  await page.getByLabel("Last Name").fill(person.lastName);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await acceptAgreementInModal(page);
  await page.waitForURL("**/dashboard");
  const message = await waitForEmail(email, /confirm your email/i);
  await page.goto(linkIn(message, "/verify-email?token="));
  await page.getByText("Your email address is verified").waitFor();
  return email;
}

/** Opens the dashboard and picks the named workspace in the sidebar's switcher. */
export async function switchToWorkspace(page: Page, name: string): Promise<void> {
  await page.goto("/dashboard");
  const switcher = page
    .getByRole("complementary", { name: "Sidebar" })
    .getByTestId("workspace-switcher");
  await switcher.click();
  await page.getByRole("menuitemradio", { name: new RegExp(name) }).click();
  await expect.poll(() => switcher.textContent()).toContain(name);
}

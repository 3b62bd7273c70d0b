import type { TAccessTokensResponse } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast, horizontalOverflow } from "./support/ui";

/**
 * Settings → Access tokens in a real browser: create one, see it once and copy it, find it
 * gone after a reload (only its last four remain), revoke it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

async function storedTokens(signInToken: string): Promise<TAccessTokensResponse> {
  const response = await fetch(`${baseURL()}/api/users/access-tokens`, {
    headers: { authorization: `Bearer ${signInToken}` },
  });
  return (await response.json()) as TAccessTokensResponse;
}

/** The public API's model list, called the way a user's script would. */
function modelsWith(accessToken: string): Promise<Response> {
  return fetch(`${baseURL()}/api/v1/models`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

describe("settings: access tokens", () => {
  it("creates a token shown once, copies it, never shows it again, and revokes it", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 1000 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Access tokens" });
    await section.getByText("No access tokens yet.").waitFor();
    expect(
      await section.getByRole("link", { name: "Read the API docs" }).getAttribute("href"),
    ).toBe("/api");

    await section.getByRole("button", { name: "Create token" }).click();
    const dialog = page.getByRole("dialog", { name: "Create an access token" });
    await dialog.waitFor();
    // Nothing without a name and a scope.
    await dialog.getByRole("checkbox", { name: /^chat/ }).uncheck();
    await dialog.getByLabel("Name").fill("CI pipeline");
    await dialog.getByRole("button", { name: "Create token" }).click();
    await dialog.getByText("Choose at least one scope.").waitFor();
    await dialog.getByRole("checkbox", { name: /^chat/ }).check();
    await dialog.getByRole("checkbox", { name: /^sessions:read/ }).check();
    await dialog.getByLabel("Expires").selectOption("30");
    await screenshot(page, "access-tokens-create", false);
    await dialog.getByRole("button", { name: "Create token" }).click();

    const shown = page.getByRole("dialog", { name: "Your new access token" });
    await shown.waitFor();
    await shown.getByText("Copy this token now: it will not be shown again.").waitFor();
    const token = await shown.getByLabel('Token "CI pipeline"').inputValue();
    expect(token).toMatch(/^cohort_pat_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Copy the token" }).click();
    await shown.getByText("Token copied to the clipboard.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, "access-tokens-shown-once", false);

    const [stored] = (await storedTokens(user.token)).tokens;
    expect(stored).toMatchObject({
      name: "CI pipeline",
      last4: token.slice(-4),
      scopes: ["chat", "sessions:read"],
      revoked_at: null,
    });

    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });
    const row = section.getByTestId("access-token-row");
    await row.waitFor();
    expect(await row.textContent()).toContain(token.slice(-4));
    expect(await row.getByTestId("access-token-last-used").textContent()).toBe("Never used");
    expect(await page.content()).not.toContain(token);

    // The copied token works on the public API; its use shows after a reload, where the token
    // itself is gone for good: only its last four characters remain.
    expect((await modelsWith(token)).status).toBe(200);
    await page.reload();
    await section.getByTestId("access-token-row").waitFor();
    expect(await page.content()).not.toContain(token);
    expect(await page.content()).not.toContain(token.slice(11, -4));
    expect(await section.getByTestId("access-token-row").textContent()).toContain(
      `cohort_pat_…${token.slice(-4)}`,
    );
    const used = (await storedTokens(user.token)).tokens[0];
    expect(used?.last_used_ip).toBeTruthy();
    const lastUsed = await section.getByTestId("access-token-last-used").textContent();
    expect(lastUsed).toMatch(/^Last used /);
    expect(lastUsed?.endsWith(` from ${used?.last_used_ip}`)).toBe(true);
    await section.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "access-tokens-list", false);

    // Revoking asks first, then takes effect at once.
    await row.getByRole("button", { name: "Revoke token CI pipeline" }).click();
    await row.getByText("Revoke? Code using it stops working at once.").waitFor();
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    await expectToast(page, 'Token "CI pipeline" revoked');
    await row.getByText("Revoked", { exact: true }).waitFor();
    expect(await row.getByRole("button").count()).toBe(0);
    expect((await storedTokens(user.token)).tokens[0]?.revoked_at).not.toBeNull();
    expect((await modelsWith(token)).status).toBe(401);
    await screenshot(page, "access-tokens-revoked", false);

    // On a phone the section fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await section.evaluate((element) => {
      element.scrollIntoView({ block: "start" });
      window.scrollBy(0, -72); // below the phone's sticky top bar
    });
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "access-tokens-phone", false);

    expectNoErrors();
    await close();
  });
});

import type { TApiKeysResponse } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * Settings → Provider keys in a real browser. The e2e server has no fake provider, so the key
 * test is exercised on the paths that need none: a user's base URL that points at this
 * machine, which the SSRF guard refuses before any connection, and an OpenAI key whose test
 * cannot pass here. The real test calls run against a local fake provider in the integration
 * tests (apps/server/test/api-keys.test.ts) and e2e/provider-key-routing.test.ts.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const OPENAI_KEY = "sk-e2e-not-a-real-key-0123456789ABCD";

async function storedKeys(token: string): Promise<TApiKeysResponse> {
  const response = await fetch(`${baseURL()}/api/users/api-keys`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await response.json()) as TApiKeysResponse;
}

describe("settings: provider keys", () => {
  it("adds, tests and removes keys, showing only their last four characters", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 1000 },
    });
    await signInContext(page.context(), user.token);
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Provider keys" });
    await section.getByText("No keys yet").waitFor();

    // A key for a server on this machine: the test says why it will not be called.
    await section.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
    await section.getByLabel("API key", { exact: true }).fill("local-server-key");
    await section.getByLabel("Base URL", { exact: true }).fill("http://127.0.0.1:11434/v1");
    await section.getByRole("button", { name: "Test", exact: true }).click();
    const verdict = section.getByTestId("key-test-result");
    await verdict.waitFor();
    expect(await verdict.textContent()).toBe(
      "Test failed. 127.0.0.1 is a loopback address, which Cohort does not call. Use your server's public address.",
    );
    // Saving it is refused the same way, and nothing is stored.
    await section.getByRole("button", { name: "Save key" }).click();
    await section.getByText("is a loopback address").last().waitFor();
    expect((await storedKeys(user.token)).keys).toEqual([]);

    // An OpenAI key: stored, listed by its last four characters only.
    await section.getByLabel("Provider", { exact: true }).selectOption("openai");
    expect(await section.getByLabel("Base URL", { exact: true }).count()).toBe(0);
    // Saving tests the key first. This machine reaches no OpenAI (or OpenAI refuses the made-up
    // key): the test fails, and the key is stored only once the user confirms.
    await section.getByLabel("API key", { exact: true }).fill(OPENAI_KEY);
    await section.getByRole("button", { name: "Save key" }).click();
    const confirm = section.getByTestId("key-save-confirm");
    await confirm.waitFor({ timeout: 20_000 });
    expect(await confirm.textContent()).toMatch(
      /^The key failed its test \((Provider unreachable|Key refused)\)\./,
    );
    expect((await storedKeys(user.token)).keys).toEqual([]);
    await confirm.getByRole("button", { name: "Save anyway" }).click();
    await expectToast(page, "OpenAI key saved");
    const row = section.getByTestId("provider-key-openai");
    await row.waitFor();
    expect(await row.textContent()).toContain("ABCD");
    expect(await page.content()).not.toContain(OPENAI_KEY.slice(0, -4));
    expect(await section.getByLabel("API key", { exact: true }).inputValue()).toBe("");
    expect(await section.getByRole("button", { name: "Replace key" }).isVisible()).toBe(true);
    const { keys } = await storedKeys(user.token);
    expect(keys).toEqual([expect.objectContaining({ provider: "openai", last4: "ABCD" })]);

    // The test result stays in view for the screenshot: the refused local server again.
    await section.getByLabel("Provider", { exact: true }).selectOption("openai-compatible");
    await section.getByLabel("API key", { exact: true }).fill("local-server-key");
    await section.getByLabel("Base URL", { exact: true }).fill("http://192.168.1.20:11434/v1");
    await section.getByRole("button", { name: "Test", exact: true }).click();
    await expect
      .poll(() => verdict.textContent())
      .toBe(
        "Test failed. 192.168.1.20 is a private network address, which Cohort does not call. Use your server's public address.",
      );
    await section.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await screenshot(page, "settings-keys", false);

    await row.getByRole("button", { name: "Remove OpenAI key" }).click();
    await row.getByRole("button", { name: "Remove", exact: true }).click();
    await expectToast(page, "OpenAI key removed");
    await section.getByText("No keys yet").waitFor();
    expect((await storedKeys(user.token)).keys).toEqual([]);

    // The refused saves (400 for the address, 422 for the failed test) are logged as failed
    // resources by the browser.
    expectNoErrors([/Failed to load resource: the server responded with a status of 4(00|22)/]);
    await close();
  });
});

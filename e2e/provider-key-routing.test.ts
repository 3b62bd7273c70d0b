import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import {
  SIGN_IN_COOKIE,
  type TAgreement,
  type TAuthResponse,
  type TOutboxMessage,
  type TSession,
} from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeProviderServer } from "../apps/server/test/support/fake-provider/fake-provider-server";
import { linkIn, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";
import { expectToast } from "./support/ui";

/**
 * Bring-your-own keys that behave (decision 029), in a real browser: a wrong
 * OpenAI key, saved after its test fails, makes a run on an OpenAI model fail with the
 * Settings message and a link there; removing the key recovers. This file runs its own server
 * whose OpenAI address is a local fake that refuses every key (401), as OpenAI does a wrong one.
 * The server has no hosted keys: without the user's key, models answer from the simulator.
 */

const ADMIN_EMAIL = "admin@keys.test";
const ADMIN_PASSWORD = "e2e-Admin-passphrase-42";
const WRONG_KEY = "sk-proj-wrong-e2e-key-000000000000WXYZ";
const REFUSED = "Your OpenAI key in Settings was refused";

let browser: Browser;
let openai: FakeProviderServer;
let server: ChildProcess;
let origin: string;

beforeAll(async () => {
  [browser, openai] = await Promise.all([launchBrowser(), FakeProviderServer.start()]);
  openai.defaultReply = { status: 401, errorMessage: "Incorrect API key provided: sk-proj***WXYZ" };
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await startServer(port, {
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    OPENAI_BASE_URL: openai.baseUrls.openai,
  });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  await openai?.close();
});

/** A call to this file's server; anonymous mutations carry a CSRF token like a browser's. */
async function call<T>(
  method: string,
  path: string,
  options: { body?: unknown; bearer?: string; anonymous?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.anonymous) {
    const response = await fetch(`${origin}/api/csrf-token`);
    headers.cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    headers["x-csrf-token"] = ((await response.json()) as { csrfToken: string }).csrfToken;
  }
  const response = await fetch(`${origin}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A verified account (the welcome credits arrive with the confirmation) and its token. */
async function createVerifiedUser(): Promise<string> {
  const { agreement } = await call<{ agreement: TAgreement }>("GET", "/agreements/current");
  const email = uniqueEmail("keys");
  const { token } = await call<TAuthResponse>("POST", "/user-auth/signup", {
    body: {
      email,
      password: TEST_PASSWORD,
      firstName: "Ada",
      lastName: "Lovelace",
      agreementId: agreement.id,
    },
    anonymous: true,
  });
  const admin = await call<TAuthResponse>("POST", "/admin/login", {
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    anonymous: true,
  });
  let message: TOutboxMessage | undefined;
  for (let i = 0; i < 50 && !message; i++) {
    const { messages } = await call<{ messages: TOutboxMessage[] }>("GET", "/admin/outbox", {
      bearer: admin.token,
    });
    message = messages.find((m) => m.to === email && /confirm your email/i.test(m.subject));
    if (!message) await sleep(200);
  }
  if (!message) throw new Error(`no confirmation email to ${email}`);
  const link = new URL(linkIn(message, "/verify-email?token="));
  await call("POST", "/user-auth/verify-email", {
    body: { token: link.searchParams.get("token") },
    anonymous: true,
  });
  return token;
}

/** Sends a message in the open session and returns its run once it has ended. */
async function runTask(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled()).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(runs + 1);
  const id = await page.getByTestId("run").last().getAttribute("data-run-id");
  const run = page.locator(`[data-testid="run"][data-run-id="${id}"]`);
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: 30_000 })
    .toMatch(/^(completed|failed)$/);
  return run;
}

describe("a user's own key that its provider refuses", () => {
  it("asks before saving it, fails a run with the Settings message, and recovers once removed", async () => {
    const token = await createVerifiedUser();
    // A session coordinated by GPT-4.1: a model the user's OpenAI key serves.
    const { session } = await call<{ session: TSession }>("POST", "/sessions", {
      bearer: token,
      body: { title: "Key check", coordinator_model: "gpt-4.1" },
    });
    const { page, expectNoErrors, close } = await openPage(browser, {
      baseURL: origin,
      viewport: { width: 1280, height: 900 },
    });
    await page
      .context()
      .addCookies([
        { name: SIGN_IN_COOKIE, value: token, url: origin, httpOnly: true, sameSite: "Lax" },
      ]);

    // A key that is not an OpenAI key at all is refused on the spot: no call goes out.
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Provider keys" });
    await section.getByText("No keys yet").waitFor();
    await section.getByLabel("API key", { exact: true }).fill("AIzaSyNotAnOpenAIKey");
    await section.getByRole("button", { name: "Save key" }).click();
    await section
      .getByText(
        'This is not an OpenAI key. An OpenAI key starts with "sk-" (for example sk-proj-…).',
      )
      .waitFor();
    expect(openai.requests).toHaveLength(0);

    // The wrong key: its test fails (refused), and saving it needs a confirmation.
    await section.getByLabel("API key", { exact: true }).fill(WRONG_KEY);
    await section.getByRole("button", { name: "Save key" }).click();
    const confirm = section.getByTestId("key-save-confirm");
    await confirm.waitFor();
    expect(await confirm.textContent()).toBe(
      "The key failed its test (Key refused). OpenAI refused this key (401). Check that it was copied whole and is still active. Saved anyway, every call on OpenAI models will fail until you replace it.Save anywayDon't save",
    );
    await screenshot(page, "settings-key-refused-confirm", false);
    await confirm.getByRole("button", { name: "Save anyway" }).click();
    await expectToast(page, "OpenAI key saved");
    const row = section.getByTestId("provider-key-openai");
    const lastTest = row.getByTestId("key-last-test");
    await expect
      .poll(() => lastTest.textContent())
      .toMatch(/^Key refusedTested .+: OpenAI refused this key \(401\)\./);

    // "Test again" asks the provider anew and keeps the new verdict.
    const testsBefore = openai.requests.length;
    await row.getByRole("button", { name: "Test the OpenAI key again" }).click();
    await expect.poll(() => openai.requests.length).toBe(testsBefore + 1);
    await expect.poll(() => lastTest.textContent()).toMatch(/^Key refusedTested /);

    // The run: the coordinator's badge says the user's key answers it; the key is refused
    // once, not retried, and the run says so, naming the key and linking to Settings.
    await page.goto(`/chat/${session.id}`);
    const header = page.getByTestId("session-header");
    await header.getByTestId("model-source-badge").getByText("Your key").waitFor();
    const callsBefore = openai.requests.length;
    const failedRun = await runTask(page, "Plan a small product launch");
    expect(await failedRun.getAttribute("data-status")).toBe("failed");
    const error = failedRun.getByTestId("run-error");
    expect(await error.textContent()).toContain(
      `${REFUSED} (OpenAI answered 401), so GPT-4.1 could not answer. Replace or remove the key in Settings.`,
    );
    expect(await error.textContent()).not.toMatch(/try again/i);
    expect(openai.requests.length).toBe(callsBefore + 1);
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${WRONG_KEY}`);
    await error.scrollIntoViewIfNeeded();
    await screenshot(page, "run-key-refused", false);

    // The link leads to Settings, where the key is removed.
    await error.getByRole("link", { name: "Open Settings to replace or remove the key" }).click();
    await page.waitForURL("**/settings");
    await row.getByRole("button", { name: "Remove OpenAI key" }).click();
    await row.getByRole("button", { name: "Remove", exact: true }).click();
    await expectToast(page, "OpenAI key removed");
    await section.getByText("No keys yet").waitFor();

    // Without the key, GPT-4.1 answers from the simulator (no hosted key here): the badge says
    // so, and the run completes without another call to OpenAI.
    await page.goto(`/chat/${session.id}`);
    await header.getByTestId("simulated-badge").waitFor();
    const callsAfterRemoval = openai.requests.length;
    const recovered = await runTask(page, "Plan a small product launch");
    expect(await recovered.getAttribute("data-status")).toBe("completed");
    await recovered.getByTestId("final-answer").waitFor();
    expect(openai.requests.length).toBe(callsAfterRemoval);

    // The refused save and key test answer 422, the refused format never leaves the browser.
    expectNoErrors([/Failed to load resource: the server responded with a status of 422/]);
    await close();

    // The operator's provider health counts the call made on the user's key, and its failure,
    // apart from hosted calls and without saying whose key it was (decision 056).
    const admin = await call<TAuthResponse>("POST", "/admin/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      anonymous: true,
    });
    const operator = await openPage(browser, {
      baseURL: origin,
      viewport: { width: 1280, height: 900 },
    });
    await operator.page
      .context()
      .addCookies([
        { name: SIGN_IN_COOKIE, value: admin.token, url: origin, httpOnly: true, sameSite: "Lax" },
      ]);
    await operator.page.goto("/admin/dashboard");
    const health = operator.page.getByTestId("provider-health");
    await health.waitFor();
    const headers = await health.getByRole("columnheader").allTextContents();
    const openaiRow = health.getByRole("row").filter({
      has: operator.page.getByRole("rowheader", { name: "OpenAI", exact: true }),
    });
    const cells = await openaiRow.getByRole("cell").allTextContents();
    // The row header is the first column; the cells are the rest, in the headers' order.
    expect(cells[headers.indexOf("On users' keys") - 1]).toBe("1 (1 failed)");
    // The server's own OpenAI key made no call: the status does not claim "No calls yet".
    expect(cells[headers.indexOf("Status") - 1]).toBe("None on the server's key");
    expect(await health.textContent()).not.toContain("example.test");
    expect(await health.textContent()).not.toContain("WXYZ");
    await operator.page.getByTestId("provider-health").scrollIntoViewIfNeeded();
    await screenshot(operator.page, "admin-provider-health-user-keys", false);
    operator.expectNoErrors();
    await operator.close();
  });
});

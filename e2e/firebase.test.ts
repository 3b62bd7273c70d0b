import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { TAuthResponse, TSignedInUserResponse } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FirebaseAuthEmulator,
  firebaseToolsInstalled,
  startFirebaseAuthEmulator,
} from "../test-support/firebase-emulator";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { freePort, startServer, stopServer } from "./support/server";
import { acceptAgreementFromOverlay, EXPECTED_401, expectToast } from "./support/ui";

/**
 * The popup sign-in through the real Firebase Auth emulator: the web app loads the SDK,
 * the emulator's provider page plays Google or GitHub, and the server verifies the emulator's
 * token (FIREBASE_AUTH_EMULATOR_HOST). This file runs its own server, configured for Firebase
 * only, on "localhost": the emulator authorizes popups from that host name alone.
 */

/** Installed apart from the project (test-support/firebase-emulator.ts); skipped loudly without. */
const FIREBASE_TOOLS = firebaseToolsInstalled();
const ADMIN_EMAIL = "admin@firebase.test";
const ADMIN_PASSWORD = "e2e-Admin-passphrase-42";

let browser: Browser;
let emulator: FirebaseAuthEmulator;
let server: ChildProcess;
let origin: string;

beforeAll(async () => {
  if (!FIREBASE_TOOLS) return;
  [browser, emulator] = await Promise.all([launchBrowser(), startFirebaseAuthEmulator()]);
  const port = await freePort();
  origin = `http://localhost:${port}`;
  server = await startServer(
    port,
    {
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      FIREBASE_PROJECT_ID: emulator.projectId,
      FIREBASE_API_KEY: "fake-api-key",
      FIREBASE_AUTH_DOMAIN: "localhost",
      FIREBASE_PROVIDERS: "google,github",
      // The same site as the app, or the SDK's helper frame would be a third party without
      // storage (Chromium partitions or denies it).
      FIREBASE_AUTH_EMULATOR_HOST: `localhost:${emulator.port}`,
    },
    origin,
  );
}, 180_000);
afterAll(async () => {
  await browser?.close();
  if (server) await stopServer(server);
  await emulator?.close();
});
beforeEach(({ skip }) => {
  if (!FIREBASE_TOOLS) skip("firebase-tools is not installed");
});

const GAPI_SHIM = readFileSync(
  path.join(import.meta.dirname, "../test-support/gapi-iframes-shim.js"),
  "utf8",
);

/**
 * A page on this file's server. The popup flow's one script from outside, Google's gapi
 * loader, is answered by the local channel of test-support/gapi-iframes-shim.js (this machine
 * has no internet); the emulator page's web fonts and styles are refused at once.
 */
async function open() {
  const guarded = await openPage(browser, {
    baseURL: origin,
    viewport: { width: 1280, height: 860 },
  });
  const context = guarded.page.context();
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ contentType: "text/javascript", body: GAPI_SHIM }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com)\//, (route) =>
    route.abort("internetdisconnected"),
  );
  return guarded;
}

interface FakeAccount {
  email: string;
  name: string;
  photoUrl?: string;
}

/** Clicks a provider button and finishes in the emulator's popup, as a new or known account. */
async function signInInPopup(
  page: Page,
  button: string,
  account: FakeAccount,
  known = false,
): Promise<void> {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: button }).click();
  const popup = await popupOpened;
  await popup.waitForLoadState("domcontentloaded");
  if (known) {
    await popup.locator("#accounts-list li", { hasText: account.email }).first().click();
    return;
  }
  await popup.locator("#add-account-button").click();
  await popup.locator("#email-input").fill(account.email);
  await popup.locator("#display-name-input").fill(account.name);
  if (account.photoUrl) await popup.locator("#profile-photo-input").fill(account.photoUrl);
  await popup.locator("#sign-in").click();
}

async function signedInUserId(page: Page): Promise<string | null> {
  const response = await page.request.get("/api/auth/me");
  return ((await response.json()) as TSignedInUserResponse).user?.id ?? null;
}

async function adminCall(path: string, method: string, body: unknown): Promise<Response> {
  const csrf = await fetch(`${origin}/api/csrf-token`);
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${origin}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, "x-csrf-token": csrfToken },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const { token } = (await login.json()) as TAuthResponse;
  return fetch(`${origin}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

describe("Sign-in through the identity provider's popup (Firebase Auth emulator)", () => {
  const grace: FakeAccount = { email: "grace@popup.test", name: "Grace Hopper" };
  // A photo the app serves itself (the test machines are offline), shown in the shell.
  const photo = () => `${origin}/favicon.svg`;
  let graceId: string | null = null;

  it("offers Google and GitHub, and a first Google sign-in creates the account", async () => {
    const { page, expectNoErrors, close } = await open();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).waitFor();
    await screenshot(page, "login-providers");
    await signInInPopup(page, "Continue with Google", { ...grace, photoUrl: photo() });
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Logged in with Google successfully!");
    await acceptAgreementFromOverlay(page);
    await page.getByRole("heading", { level: 1, name: `Welcome, ${grace.name}` }).waitFor();
    graceId = await signedInUserId(page);
    expect(graceId).not.toBeNull();
    expect(await page.getByTestId("shell-avatar").first().getAttribute("src")).toBe(photo());
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("a second Google sign-in reuses the account", async () => {
    const { page, expectNoErrors, close } = await open();
    await page.goto("/login");
    await signInInPopup(page, "Continue with Google", grace, true);
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Logged in with Google successfully!");
    await page.getByRole("heading", { level: 1, name: `Welcome, ${grace.name}` }).waitFor();
    expect(await signedInUserId(page)).toBe(graceId);
    expect(await page.getByRole("alertdialog").count()).toBe(0);
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("signs in with GitHub, then links Google in Settings; the last way in stays", async () => {
    const { page, expectNoErrors, close } = await open();
    await page.goto("/login");
    await signInInPopup(page, "Continue with GitHub", {
      email: "linus@popup.test",
      name: "Linus T",
    });
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Logged in with GitHub successfully!");
    await acceptAgreementFromOverlay(page);
    expect(await signedInUserId(page)).not.toBe(graceId);

    await page.goto("/settings");
    const linked = page.getByTestId("linked-accounts");
    await linked.getByRole("button", { name: "Unlink GitHub" }).click();
    await expectToast(page, "This is the only way to sign in to your account.");
    // The viewport, not the whole page: the shell's sidebar is sticky to it.
    await linked.scrollIntoViewIfNeeded();
    await screenshot(page, "settings-linked-accounts", false);
    await signInInPopup(page, "Link Google", { email: "linus.google@popup.test", name: "Linus T" });
    await expectToast(page, "Google sign-in linked");
    await linked.getByRole("button", { name: "Unlink Google" }).waitFor();
    await linked.getByRole("button", { name: "Unlink GitHub" }).click();
    await expectToast(page, "GitHub sign-in removed");
    await linked.getByRole("button", { name: "Link GitHub" }).waitFor();
    expectNoErrors([EXPECTED_401, /status of 409/]);
    await close();
  });

  it("says nothing when the user closes the popup", async () => {
    const { page, expectNoErrors, close } = await open();
    await page.goto("/login");
    const button = page.getByRole("button", { name: "Continue with Google" });
    const popupOpened = page.waitForEvent("popup");
    await button.click();
    const popup = await popupOpened;
    await expect.poll(() => button.isDisabled()).toBe(true);
    await popup.close();
    // The SDK notices the closed window and gives up; the button comes back, with no toast.
    await expect.poll(() => button.isEnabled(), { timeout: 45_000 }).toBe(true);
    expect(await page.locator("ol > li").count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/login");
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("warns when the popup worked but the server refused the sign-in", async () => {
    // A disabled account: the provider still signs the user in, Cohort does not (403).
    expect(graceId).not.toBeNull();
    const disabled = await adminCall(`/api/admin/users/${graceId}/disabled`, "PUT", {
      disabled: true,
      reason: "e2e: sync failure",
    });
    expect(disabled.status).toBe(200);
    const { page, expectNoErrors, close } = await open();
    await page.goto("/login");
    await signInInPopup(page, "Continue with Google", grace, true);
    await expectToast(page, "Warning: Could not sync with backend. Some features may not work.");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await signedInUserId(page)).toBeNull();
    expectNoErrors([EXPECTED_401, /status of 403/]);
    await close();
  });
});

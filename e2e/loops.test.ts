import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401 } from "./support/ui";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the login redirect-loop guard", () => {
  it("stops the 4th redirect to the dashboard within 2 s, clears the stored state and alerts", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser);
    // The page's clock stands still: the four redirects fall within the guard's 2 s however
    // long a loaded machine takes to load the pages (timers still run).
    await page.clock.setFixedTime(Date.now());
    await signInContext(page.context(), user.token);
    for (let i = 1; i <= 3; i++) {
      await page.goto("/login");
      await page.waitForURL("**/dashboard");
    }
    expect(await page.evaluate(() => sessionStorage.getItem("loginRedirectCount"))).toBe("3");
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBe("cookie-sign-in");

    await page.goto("/login");
    const alert = page.getByRole("alertdialog", { name: "Redirect loop stopped" });
    await alert.waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    const stored = await page.evaluate(() => ({
      authToken: localStorage.getItem("authToken"),
      userProfile: localStorage.getItem("userProfile"),
      count: sessionStorage.getItem("loginRedirectCount"),
    }));
    expect(stored).toEqual({ authToken: null, userProfile: null, count: "4" });
    await alert.getByRole("button", { name: "OK" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    expectNoErrors();
    await close();
  });
});

describe("the route-loop detector", () => {
  it("shows the Authentication Error page, and 'Clear Data and Login' wipes storage", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 800 },
    });
    // The page's clock stands still, so the four visits fall within the detector's 5 s however
    // long a loaded machine takes to render them (CI once took longer: the error page never came).
    await page.clock.setFixedTime(Date.now());
    await page.goto("/debug-auth");
    await page.getByRole("heading", { level: 1, name: "Auth debug" }).waitFor();
    await page.evaluate(() => {
      localStorage.setItem("e2e-marker", "1");
      sessionStorage.setItem("e2e-marker", "1");
    });
    const debugNav = page.getByRole("navigation", { name: "Debug pages" });
    // /debug-auth is visited a 4th time within 5 s on the last click.
    for (let i = 0; i < 3; i++) {
      await debugNav.getByRole("link", { name: "/test-redirect" }).click();
      await page.getByRole("heading", { level: 1, name: "Redirect test" }).waitFor();
      await debugNav.getByRole("link", { name: "/debug-auth" }).click();
    }
    await page.getByRole("heading", { level: 1, name: "Authentication Error" }).waitFor();
    await page
      .getByText("A redirect loop was detected. Please clear your browser data and try again.")
      .waitFor();
    await screenshot(page, "auth-error");

    await page.getByRole("button", { name: "Clear Data and Login" }).click();
    await page.waitForURL("**/login");
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    const left = await page.evaluate(() => ({
      local: localStorage.getItem("e2e-marker"),
      session: sessionStorage.getItem("e2e-marker"),
      history: JSON.parse(sessionStorage.getItem("navigationHistory") ?? "[]") as {
        path: string;
      }[],
    }));
    expect(left.local).toBeNull();
    expect(left.session).toBeNull();
    expect(left.history.map((entry) => entry.path)).toEqual(["/login"]);
    expectNoErrors([EXPECTED_401]);
    await close();
  });

  it("keeps the navigation history of the last 20 navigations in sessionStorage", async () => {
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/simple-auth");
    await page.getByText("Not signed in.").waitFor();
    const nav = page.getByRole("navigation", { name: "Debug pages" });
    const readHistory = () =>
      page.evaluate(
        () =>
          JSON.parse(sessionStorage.getItem("navigationHistory") ?? "[]") as {
            path: string;
            time: number;
            search: string;
            state: unknown;
          }[],
      );
    const targets = ["/auth-debug", "/auth-debug-page", "/isolated-auth", "/simple-auth"];
    for (const [i, target] of targets.entries()) {
      await nav.getByRole("link", { name: target, exact: true }).click();
      await page.waitForURL(`**${target}`);
      // The tracker records a page once it has rendered (an effect; React Router renders a
      // navigation in a transition): a click on the next link before that, which no person
      // makes, can fold both into one render and one entry (4 of 5 in CI-equivalent runs,
      // with a 10 s wait for the fifth). Each page is waited for.
      await expect.poll(async () => (await readHistory()).length, { timeout: 10_000 }).toBe(i + 2);
    }
    const history = await readHistory();
    expect(history.map((entry) => entry.path)).toEqual([
      "/simple-auth",
      "/auth-debug",
      "/auth-debug-page",
      "/isolated-auth",
      "/simple-auth",
    ]);
    expect(Object.keys(history[0] ?? {}).sort()).toEqual(["path", "search", "state", "time"]);
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBeGreaterThan(0);
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

describe("the isolated auth pair", () => {
  it("redirects to /isolated-auth after a 500 ms check without a token, and opens with one", async () => {
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/isolated-dashboard");
    await page.getByText("Checking the fake token…").waitFor();
    await page.waitForURL("**/isolated-auth");
    await page.getByText("No token.").waitFor();
    await page.getByRole("button", { name: "Set fake token" }).click();
    await page.getByRole("link", { name: "Open the isolated dashboard" }).click();
    await page.getByTestId("isolated-dashboard-ok").waitFor();
    expect(new URL(page.url()).pathname).toBe("/isolated-dashboard");
    expectNoErrors();
    await close();
  });
});

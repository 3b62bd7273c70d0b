import { APP_ROUTES, type TAppRoute } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const WIDE = { viewport: { width: 1280, height: 900 } };

/** Every concrete path of a route: each allowed parameter value, or a made-up one. */
function pathsOf(route: TAppRoute): string[] {
  let paths = [route.path.replace(/\/:\w+\?$/, "")];
  for (const [name, values] of Object.entries(route.params ?? {})) {
    paths = paths.flatMap((path) => values.map((value) => path.replace(`:${name}`, value)));
  }
  return paths.map((path) =>
    path
      .replace(":userId", "00000000-0000-4000-8000-000000000000")
      .replace(":token", "no-such-share-link")
      .replace(":slug", "no-such-post"),
  );
}

function routesFor(access: TAppRoute["access"]): string[] {
  return (APP_ROUTES as readonly TAppRoute[])
    .filter((route) => route.access === access && route.path !== "/blog/:slug")
    .flatMap(pathsOf);
}

/**
 * Records every failed response a page gets for its own document and assets (scripts,
 * styles, fonts, images, the icon). API answers are left out: a signed-out page's 401 from
 * the profile call, or a made-up share link's 404, are answers, not missing files.
 */
function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    const isDocument = response.request().resourceType() === "document";
    if (response.status() >= 400 && (isDocument || !url.pathname.startsWith("/api/"))) {
      failures.push(`${response.status()} ${url.pathname}`);
    }
  });
  return failures;
}

/**
 * Opens each path and lets its files load: the page's document, then every script, style,
 * font and image it asks for (lazy chunks included) until none has been pending for 250 ms.
 * API calls and the socket are not waited for: signed-in pages keep a socket polling, so the network as a
 * whole never goes quiet there. The wait is bounded at 5 s and is not an assertion.
 */
async function visitAll(page: Page, paths: readonly string[]) {
  const pending = new Set<unknown>();
  let lastChange = Date.now();
  const isFile = (url: string) => !/^\/(api|socket\.io)\//.test(new URL(url).pathname);
  page.on("request", (request) => {
    if (!isFile(request.url())) return;
    pending.add(request);
    lastChange = Date.now();
  });
  const settle = (request: { url(): string }) => {
    if (pending.delete(request)) lastChange = Date.now();
  };
  page.on("requestfinished", settle);
  page.on("requestfailed", settle);
  for (const path of paths) {
    await page.goto(path, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (pending.size > 0 || Date.now() - lastChange < 250)) {
      await page.waitForTimeout(50);
    }
  }
}

describe("every page's files are there", () => {
  it("answers every public route's document, scripts, styles and icon without a 4xx/5xx", async () => {
    const { page, close } = await openPage(browser, WIDE);
    const failures = watchFailures(page);
    await visitAll(page, routesFor("public"));
    // A browser asks for /favicon.ico for any page that names no icon.
    const icon = await page.goto("/favicon.ico");
    expect(icon?.status()).toBe(200);
    expect(icon?.url()).toMatch(/\/favicon\.svg$/);
    expect(failures).toEqual([]);
    await close();
  });

  it("answers the signed-in and admin routes and the test checkout page without a 4xx/5xx", async () => {
    const user = await createUser();
    const { page, close } = await openPage(browser, WIDE);
    const failures = watchFailures(page);
    await signInContext(page.context(), user.token);
    await visitAll(page, routesFor("protected"));

    await page.goto("/billing");
    await page.getByRole("button", { name: "Buy 100 credits for $4.99" }).click();
    await page.waitForURL(/\/api\/billing\/dev-checkout\/cs_test_dev_/);
    await page.getByText("Test payment page").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");

    await signInContext(page.context(), await adminToken());
    await visitAll(page, routesFor("admin"));
    expect(failures).toEqual([]);
    await close();
  });
});

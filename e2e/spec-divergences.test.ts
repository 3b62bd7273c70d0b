import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { EXPECTED_401 } from "./support/ui";

/** Where the product description and the app disagreed: the connection indicator, 429s, the 404 page, the blog. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 860 } };
const postFiles = readdirSync(path.resolve(import.meta.dirname, "../apps/web/src/content/blog"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => name.replace(/\.md$/, ""));

describe("the connection indicator (the UI states)", () => {
  it("says Disconnected before the first connection, then hides once connected", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    // The socket's first request waits until the test lets it through.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/socket.io/**", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/dashboard");
    const indicator = page.getByTestId("connection-indicator");
    await indicator.waitFor();
    expect(await indicator.getAttribute("data-state")).toBe("disconnected");
    expect(await indicator.textContent()).toContain("Disconnected");
    // Nothing was lost yet, so nothing is announced as lost.
    expect(await page.getByTestId("connection-announcer").textContent()).toBe("");
    await screenshot(page, "connection-first-disconnected", false);

    release();
    await expect.poll(() => indicator.count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByTestId("connection-announcer").textContent()).toBe("");
    expectNoErrors();
    await close();
  });
});

describe("a rate-limited catalogue (the error texts)", () => {
  it("leaves the new-session dialog working on the defaults, with no error shown", async () => {
    const user = await createUser();
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    const limited = {
      status: 429,
      headers: { "retry-after": "30", "content-type": "application/json" },
      body: JSON.stringify({ error: { code: "rate_limited", message: "Too many requests." } }),
    };
    await page.route("**/api/ai/models", (route) => route.fulfill(limited));
    await page.route("**/api/ai/agent-roles", (route) => route.fulfill(limited));
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.waitFor();
    const coordinator = dialog.getByLabel("Coordinator model");
    await expect.poll(() => coordinator.isEnabled()).toBe(true);
    expect(await coordinator.locator("option").count()).toBe(1);
    expect(await page.locator("ol > li").count()).toBe(0);

    await dialog.getByLabel("Title", { exact: true }).fill("Rate-limited catalogue");
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    await page.getByRole("heading", { level: 1, name: "Rate-limited catalogue" }).waitFor();
    expectNoErrors([/status of 429/]);
    await close();
  });
});

describe("the 404 page", () => {
  it("has exactly one robots meta tag, loaded directly or reached in the app, and none after", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    const robots = page.locator('meta[name="robots"]');
    await page.goto("/no/such/page");
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    expect(await robots.count()).toBe(1);
    expect(await robots.getAttribute("content")).toBe("noindex");

    await page.getByRole("link", { name: "Go to Homepage" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => robots.count()).toBe(0);

    await page.goto("/pricing");
    await page.evaluate(() => {
      window.history.pushState({}, "", "/blog/no-such-post");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    expect(await robots.count()).toBe(1);
    expectNoErrors([/status of 404/, EXPECTED_401]);
    await close();
  });
});

describe("the blog", () => {
  it("lists the Markdown posts, each on its own page, with an RSS feed", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Blog" }).click();
    await page.waitForURL("**/blog");
    const cards = page.getByTestId("blog-post-card");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(postFiles.length);
    const feedLink = page.locator('link[rel="alternate"][type="application/rss+xml"]');
    expect(await feedLink.getAttribute("href")).toBe("/blog/rss.xml");
    await screenshot(page, "blog");

    await page.getByRole("link", { name: /How a Cohort run works/ }).click();
    await page.waitForURL("**/blog/how-a-cohort-run-works");
    await page
      .getByRole("heading", {
        level: 1,
        name: "How a Cohort run works: plan, agents, review, answer",
      })
      .waitFor();
    const body = page.getByTestId("blog-post-body");
    expect(
      await body
        .getByRole("heading", { level: 2, name: "1. The coordinator writes a plan" })
        .count(),
    ).toBe(1);
    expect(await page.title()).toBe(
      "How a Cohort run works: plan, agents, review, answer — Cohort",
    );
    await screenshot(page, "blog-post");

    const feed = await fetch(`${baseURL()}/blog/rss.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await feed.text();
    for (const slug of postFiles) expect(xml).toContain(`${baseURL()}/blog/${slug}</link>`);

    const missing = await page.goto("/blog/no-such-post");
    expect(missing?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    expectNoErrors([/status of 404/, EXPECTED_401]);
    await close();
  });
});

describe("claims on the landing page", () => {
  it("keeps three testimonials, said to be illustrative, and never calls built features unbuilt", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("testimonial").count()).toBe(3);
    await page.getByText("Illustrative quotes written by the Cohort team").waitFor();
    // Workspaces and export are built (decision 057): nothing on the page says they are coming.
    expect(await page.getByRole("heading", { name: /Coming: workspaces/ }).count()).toBe(0);
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

describe("performance data (the data model and the API)", () => {
  it("takes the spec's payload as it is, sent from a page: no page path, no session id", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    const answer = await page.evaluate(async () => {
      // The page's own CSRF token, as the web client sends it with every POST, and like the
      // client one retry with a fresh token: the page's first requests, racing this one, may
      // each have been given a new CSRF cookie, and only the last one set stands.
      const send = async () => {
        const { csrfToken } = (await (await fetch("/api/csrf-token")).json()) as {
          csrfToken: string;
        };
        return fetch("/api/analytics/performance", {
          method: "POST",
          headers: { "content-type": "application/json", "x-csrf-token": csrfToken },
          body: JSON.stringify({
            lcp: 1200,
            fid: 8,
            cls: 0.02,
            ttfb: 90,
            domLoadTime: 700,
            pageLoadTime: 1500,
          }),
        });
      };
      let response = await send();
      if (response.status === 403) response = await send();
      return { status: response.status, body: await response.json() };
    });
    expect(answer).toEqual({ status: 202, body: { accepted: 1 } });
    expectNoErrors([EXPECTED_401]);
    await close();
  });
});

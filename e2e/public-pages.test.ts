import { readFileSync } from "node:fs";
import path from "node:path";
import { FOOTER_LINKS } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, screenshot } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the landing page", () => {
  it("shows the hero, benefits, three testimonials, the four plans, the FAQ and the footer", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 800 },
    });
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { level: 1 }).waitFor();

    const getStarted = page.getByRole("main").getByRole("link", { name: "Get Started" }).first();
    expect(await getStarted.getAttribute("href")).toBe("/login?mode=signup");

    const pricing = page.locator("#pricing");
    const plans = [
      { name: "Starter", price: "$9.99", credits: "200 credits" },
      { name: "Pro", price: "$19.99", credits: "1,000 credits" },
      { name: "Pro+", price: "$49.99", credits: "3,000 credits" },
      { name: "Enterprise", price: "$199.99", credits: "20,000 credits" },
    ];
    for (const plan of plans) {
      const card = pricing.getByTestId(`plan-${plan.name}`);
      await expect.poll(() => card.isVisible()).toBe(true);
      const text = await card.innerText();
      expect(text).toContain(plan.price);
      expect(text).toContain(plan.credits);
    }
    expect(await pricing.getByTestId("plan-Starter").innerText()).toContain("IN BETA");
    for (const name of ["Pro", "Pro+"]) {
      const button = pricing
        .getByTestId(`plan-${name}`)
        .getByRole("button", { name: "Coming Soon" });
      expect(await button.isDisabled()).toBe(true);
    }
    expect(await pricing.getByTestId("plan-Pro").innerText()).toContain("CoChat Unlimited");

    expect(await page.getByTestId("testimonial").count()).toBe(3);
    expect(await page.getByRole("heading", { name: /frequently asked/i }).count()).toBe(1);

    const footer = page.getByRole("contentinfo");
    for (const link of FOOTER_LINKS) {
      expect(await footer.locator(`a[href="${link.to}"]`).count()).toBeGreaterThan(0);
    }

    const viewport = await page.locator('meta[name="viewport"]').getAttribute("content");
    expect(viewport).toContain("maximum-scale=5");
    // The first screen, not the whole page: the README's picture stays small (under 400 KB).
    await screenshot(page, "landing", false);
    expectNoErrors();
    await close();
  });

  it("starts with a skip-to-content link that moves focus to the main content", async () => {
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    expect((await focused.innerText()).toLowerCase()).toContain("skip to");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main-content");
    expectNoErrors();
    await close();
  });

  it("fits a 360 px wide phone without horizontal scrolling", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 360, height: 740 },
      isMobile: true,
    });
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "landing-mobile", false);
    expectNoErrors();
    await close();
  });

  it.each(["/privacy", "/about", "/features", "/pricing", "/use-cases/finance", "/docs", "/api"])(
    "serves %s with a heading and no errors",
    async (path) => {
      const { page, expectNoErrors, close } = await openPage(browser);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await page.title()).not.toBe("");
      expectNoErrors();
      await close();
    },
  );
});

describe("the documentation page", () => {
  it("names the Node.js versions package.json's engines name", async () => {
    const engines = (
      JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as {
        engines: { node: string };
      }
    ).engines.node;
    const { page, expectNoErrors, close } = await openPage(browser);
    await page.goto("/docs");
    const started = page.locator("section", {
      has: page.getByRole("heading", { name: "Getting started" }),
    });
    const text = (await started.locator("p").first().textContent())?.replace(/\s+/g, " ");
    expect(text).toBe(
      `You need Node.js 20.19 or a later 20.x, 22.12 or a later 22.x, or 24 and newer (what the repository's package.json asks for: ${engines}). From the repository root, install the dependencies and start Cohort:`,
    );
    expectNoErrors();
    await close();
  });
});

describe("the 404 page", () => {
  it("answers 404, is not indexed and offers the ways back of the route table", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 800 },
    });
    await page.goto("/pricing");
    const response = await page.goto("/this/page/does/not/exist");
    expect(response?.status()).toBe(404);
    await page.getByRole("button", { name: "Go Back" }).waitFor();
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBeGreaterThan(0);

    const main = page.getByRole("main");
    for (const href of ["/login", "/use-cases", "/pricing", "/docs", "/contact"]) {
      expect(await main.locator(`a[href="${href}"]`).count()).toBeGreaterThan(0);
    }
    await screenshot(page, "not-found");

    await page.getByRole("button", { name: "Go Back" }).click();
    await page.waitForURL("**/pricing");

    await page.goto("/another-missing-page");
    await page.getByRole("link", { name: "Go to Homepage" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    // The browser reports the 404 document itself as a failed resource; nothing else may fail.
    expectNoErrors([/status of 404/]);
    await close();
  });
});

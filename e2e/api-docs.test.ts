import { COHORT_TEAM_MODEL, MCP_PATH, MCP_TOOLS, OPENAI_API_PREFIX } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("the API pages", () => {
  it("/api shows copy-paste examples for the real origin, and their copy buttons work", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const origin = new URL(baseURL()).origin;
    expect((await page.goto("/api"))?.status()).toBe(200);
    await page.getByRole("heading", { level: 1 }).waitFor();

    const main = page.getByRole("main");
    for (const id of ["access-tokens", "openai", "mcp", "web-api"]) {
      expect(await main.locator(`h2#${id}`).count(), id).toBe(1);
    }
    expect(await page.getByTestId("api-base-url").textContent()).toBe(
      `${origin}${OPENAI_API_PREFIX}`,
    );
    expect(await page.getByTestId("mcp-url").textContent()).toBe(`${origin}${MCP_PATH}`);
    for (const tool of Object.values(MCP_TOOLS)) {
      await main.getByRole("cell", { name: tool, exact: true }).waitFor();
    }

    const examples = {
      "JavaScript (openai npm package)": [
        `baseURL: "${origin}${OPENAI_API_PREFIX}"`,
        `model: "${COHORT_TEAM_MODEL}"`,
      ],
      "Python (openai package)": [
        `base_url="${origin}${OPENAI_API_PREFIX}"`,
        "from openai import OpenAI",
      ],
      curl: [
        `curl -N ${origin}${OPENAI_API_PREFIX}/chat/completions`,
        "Authorization: Bearer $COHORT_TOKEN",
      ],
      "MCP client configuration (clients that take a URL and headers)": [
        `"url": "${origin}${MCP_PATH}"`,
        '"Authorization": "Bearer cohort_pat_…"',
      ],
      "TypeScript (MCP SDK client)": [
        `new URL("${origin}${MCP_PATH}")`,
        `name: "${MCP_TOOLS.runTeam}"`,
      ],
    };
    for (const [title, expected] of Object.entries(examples)) {
      const example = main.getByRole("region", { name: title });
      const shown = (await example.locator("pre").textContent()) ?? "";
      for (const text of expected) expect(shown, title).toContain(text);
      await example.getByRole("button", { name: "Copy" }).click();
      await example.getByRole("button", { name: "Copied" }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(shown);
    }
    // The MCP configuration is JSON a client can read as it is.
    const mcpConfig = main.getByRole("region", {
      name: "MCP client configuration (clients that take a URL and headers)",
    });
    expect(JSON.parse((await mcpConfig.locator("pre").textContent()) ?? "")).toEqual({
      mcpServers: {
        cohort: {
          type: "http",
          url: `${origin}${MCP_PATH}`,
          headers: { Authorization: "Bearer cohort_pat_…" },
        },
      },
    });

    await screenshot(page, "api-page");
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, "api-page-top", false);
    for (const id of ["openai", "mcp"]) {
      await main.locator(`h2#${id}`).evaluate((h) => h.scrollIntoView());
      await screenshot(page, `api-page-${id}`, false);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = Array.from(document.querySelectorAll("main *"))
        .filter((e) => e.getBoundingClientRect().right > width + 1)
        .filter((e) => {
          // Inside a scrolling box (code, wide tables) is fine: the page itself does not widen.
          for (let up = e.parentElement; up; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== "visible") return false;
          }
          return true;
        })
        .slice(0, 5)
        .map((e) => `${e.tagName}.${e.className} ${(e.textContent ?? "").slice(0, 40)}`);
      return { by: document.documentElement.scrollWidth - width, wide };
    });
    expect(overflow.by, overflow.wide.join("\n")).toBeLessThanOrEqual(0);
    await screenshot(page, "api-page-mobile");
    expectNoErrors();
    await close();
  });

  it("/api/docs documents the OpenAI-compatible routes and the MCP endpoint", async () => {
    const { page, close } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    expect((await page.goto("/api/docs"))?.status()).toBe(200);
    const completions = page.locator(".opblock-summary-path", {
      hasText: /^\/api\/v1\/chat\/completions$/,
    });
    await completions.first().waitFor();
    await page
      .locator(".opblock-summary-path", { hasText: /^\/api\/mcp$/ })
      .first()
      .waitFor();
    // Bearer-secured: Swagger UI draws a lock on the operation.
    const operation = page.locator(".opblock", { has: completions });
    expect(await operation.locator(".authorization__btn").count()).toBeGreaterThan(0);
    await page.getByText("Public API.", { exact: false }).first().waitFor();
    await operation.locator(".opblock-summary").first().scrollIntoViewIfNeeded();
    await screenshot(page, "api-docs", false);
    await close();
  });
});

import { mkdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/find-chromium.mjs";

const root = path.resolve(import.meta.dirname, "../..");

export function baseURL(): string {
  return inject("baseURL");
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error("No Chromium found: install it or set CHROMIUM_PATH.");
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export interface GuardedPage {
  page: Page;
  /** Browser console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Fails the test on any console error not matching one of `allowed`. */
  expectNoErrors(allowed?: RegExp[]): void;
  close(): Promise<void>;
}

/** How long a test waits for its context to close before going on without it. */
const CONTEXT_CLOSE_WAIT_MS = 250;

/** A fresh browser context and page whose console errors fail the test unless expected. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<GuardedPage> {
  const context = await browser.newContext({ baseURL: baseURL(), ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return {
    page,
    errors,
    expectNoErrors(allowed = []) {
      const unexpected = errors.filter((e) => !allowed.some((pattern) => pattern.test(e)));
      if (unexpected.length > 0) {
        throw new Error(`Unexpected browser console errors:\n${unexpected.join("\n")}`);
      }
    },
    // Cleanup only: a context that Chromium is slow to dispose (seen now and then right after
    // a redirect, and in 27 of ~200 contexts in one CI run) must not fail the test that used
    // it, nor hold the suite up. The browser's own close ends it.
    close: async () => {
      const closed = context.close().catch(() => undefined);
      const timer = sleep(CONTEXT_CLOSE_WAIT_MS).then(() => {
        console.warn("A browser context was slow to close; left to the browser's close");
      });
      await Promise.race([closed, timer]);
    },
  };
}

/**
 * Saves a screenshot under test-results/screenshots; with UPDATE_SCREENSHOTS=1 also into
 * docs/screenshots, where the README shows them.
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  const dirs = [path.join(root, "test-results/screenshots")];
  if (process.env.UPDATE_SCREENSHOTS === "1") dirs.push(path.join(root, "docs/screenshots"));
  for (const dir of dirs) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
  }
}

import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_ARGS, findChromium } from "../../scripts/find-chromium.mjs";

const root = path.resolve(import.meta.dirname, "../..");

let ownBaseURL: string | undefined;

/** The server this file's pages and API calls go to: the suite's, unless it has its own. */
export function baseURL(): string {
  return ownBaseURL ?? inject("baseURL");
}

/** For e2e/support/own-server.ts: this file (its own module graph) uses another server. */
export function useBaseURL(url: string | undefined): void {
  ownBaseURL = url;
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
const CONTEXT_CLOSE_WAIT_MS = 2_000;

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
    // Cleanup only: a context that Chromium is slow to dispose must not fail the test that
    // used it, nor hold the suite up; the browser's own close ends it. The timer is cleared
    // once the context has closed: left running, it used to report every context as slow
    // (closes take ~0.1 s, under 1 s on a busy machine).
    close: async () => {
      let timer: NodeJS.Timeout | undefined;
      const closed = context.close().then(
        () => true,
        () => true,
      );
      const gaveUp = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CONTEXT_CLOSE_WAIT_MS);
      });
      const inTime = await Promise.race([closed, gaveUp]);
      clearTimeout(timer);
      if (!inTime) {
        console.warn(
          `A browser context took over ${CONTEXT_CLOSE_WAIT_MS} ms to close; left to the browser's close`,
        );
      }
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

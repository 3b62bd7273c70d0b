import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_ARGS, findChromium, findTestChromium } from "../../scripts/find-chromium.mjs";

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

/**
 * Chromium for one browser-test file: Debian's chromium-headless-shell when installed (decision
 * 092), or with `full` the whole browser a person runs, as the main flow's file (chat.test.ts)
 * always does.
 */
export async function launchBrowser(options: { full?: boolean } = {}): Promise<Browser> {
  const executablePath = options.full ? findChromium() : findTestChromium();
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
  // Reduced motion, as a person may set it: pages do not redraw for spinners and pulsing
  // dots, which in software rendering was most of Chromium's CPU in CI.
  const context = await browser.newContext({
    baseURL: baseURL(),
    reducedMotion: "reduce",
    ...options,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  /** Failed loads by URL: the console's text does not name the resource, the report does. */
  const failedUrls: string[] = [];
  /**
   * Calls refused for a stale CSRF token, which the web client then retries once with a fresh
   * one (lib/api/client.ts, lib/telemetry/transport.ts): signing in rotates the secret, and a
   * call sent in the moment between the new cookie and the client dropping its token meets
   * the refusal. The browser still logs the first 403; the retry is what the user gets.
   */
  const csrfRefused = new Set<string>();
  /** URLs that answered 2xx/3xx: a refused call counts as retried only when its retry worked. */
  const answered = new Set<string>();
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    errors.push(text);
    failedUrls.push(text.startsWith("Failed to load resource") ? message.location().url : "");
  });
  page.on("pageerror", (error) => {
    errors.push(`uncaught: ${error.message}`);
    failedUrls.push("");
  });
  page.on("response", (response) => {
    if (response.status() < 400) answered.add(response.url());
    if (response.status() !== 403 || !new URL(response.url()).pathname.startsWith("/api/")) return;
    response
      .json()
      .then((body: { error?: { code?: string } }) => {
        if (body.error?.code === "csrf_invalid") csrfRefused.add(response.url());
      })
      .catch(() => undefined);
  });
  return {
    page,
    errors,
    expectNoErrors(allowed = []) {
      const unexpected = errors
        .map((e, i) => ({ text: e, url: failedUrls[i] ?? "" }))
        .filter(
          ({ text, url }) =>
            !(/status of 403/.test(text) && csrfRefused.has(url) && answered.has(url)),
        )
        .map(({ text, url }) => (url ? `${text} (${url})` : text))
        .filter((e) => !allowed.some((pattern) => pattern.test(e)));
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

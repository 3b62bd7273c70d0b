// Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's and common paths.
import { existsSync } from "node:fs";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
}

/** Debian's chromium-headless-shell: the same Chromium, built without the browser's own UI. */
const HEADLESS_SHELLS = [
  "/usr/bin/chromium-headless-shell",
  "/usr/lib/chromium/chromium-headless-shell",
];

/**
 * The browser a browser-test file launches (decision 092): Debian's chromium-headless-shell
 * when it is installed, as Playwright itself launches headless Chromium, else `findChromium`.
 * The full browser draws its own windows, tab strip and WebUI pages for every context even
 * headless, which was half of the browser's CPU in CI. CHROMIUM_PATH picks any browser, and
 * E2E_FULL_CHROMIUM=1 the full one for every file (the main flow's file always uses it).
 */
export function findTestChromium(env = process.env) {
  if (!env.CHROMIUM_PATH && env.E2E_FULL_CHROMIUM !== "1") {
    const shell = HEADLESS_SHELLS.find((candidate) => existsSync(candidate));
    if (shell) return shell;
  }
  return findChromium(env);
}

/** The flags every browser test launches Chromium with (no sandbox as root, no network). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

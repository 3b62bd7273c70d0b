import { readFile } from "node:fs/promises";
import type { TSession } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { api } from "./support/api";
import { axeViolations } from "./support/axe";
import { launchBrowser, openPage } from "./support/browser";

/**
 * The files run_code writes, in a real browser (decisions 068, 076): the simulator's Coder
 * (labelled simulated) runs the program the task brings; its lane's tool row offers the CSV it
 * wrote as a download, live and after a reload. A share link of the session shows the row
 * without its arguments, output or files (no download).
 */
const RUN_TIMEOUT = 150_000;
const TASK = [
  "Run this Python code and keep the CSV it writes:",
  "```python",
  "open('totals.csv', 'w').write('name,total\\nada,42\\n')",
  "print('written')",
  "```",
].join("\n");
const CSV = "name,total\nada,42\n";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function download(page: Page, link: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: await readFile(path, "utf8") };
}

describe("a lane's code files", () => {
  it("downloads the file run_code wrote from its lane, again after a reload; a share shows the row without it", async () => {
    const user = await createUser();
    const { session } = await api<{ session: TSession }>("POST", "/api/sessions", user.token, {
      title: "Totals",
      manual_agent_selection: true,
      agent_preferences: { coder: { enabled: true } },
      tools: { policy: "never_ask", roles: { coder: { builtins: ["run_code"], mcp_servers: [] } } },
    });

    const { page, expectNoErrors, close } = await openPage(browser, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    await signInContext(page.context(), user.token);
    await page.goto(`/chat/${session.id}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect.poll(() => box.isEnabled()).toBe(true);
    await box.fill(TASK);
    await box.press("Enter");
    const run = page.getByTestId("run").last();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
      .toBe("completed");

    const row = run.locator('[data-testid="tool-call"][data-tool="run_code"]').first();
    await expect.poll(() => row.getAttribute("data-status")).toBe("completed");
    const files = row.getByRole("list", { name: "Files it wrote" });
    const link = files.getByRole("link", { name: /^totals\.csv/ });
    expect(await download(page, link)).toEqual({ name: "totals.csv", text: CSV });
    expect(await axeViolations(page, ['[data-testid="tool-call"]'])).toEqual([]);

    // After a reload the row comes from the stored run: the file is still offered.
    await page.reload();
    const again = page
      .getByTestId("run")
      .last()
      .locator('[data-testid="tool-call"][data-tool="run_code"]')
      .first();
    await again.waitFor({ timeout: 30_000 });
    const reloaded = again
      .getByRole("list", { name: "Files it wrote" })
      .getByRole("link", { name: /^totals\.csv/ });
    expect(await download(page, reloaded)).toEqual({ name: "totals.csv", text: CSV });

    // A share of the session: the row is there, what went in and came out is not.
    const { url } = await api<{ url: string }>(
      "POST",
      `/api/sessions/${session.id}/shares`,
      user.token,
      {},
    );
    const viewer = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await viewer.page.goto(new URL(url).pathname);
    await viewer.page.getByTestId("shared-page").waitFor();
    const shared = viewer.page.locator('[data-testid="tool-call"][data-tool="run_code"]').first();
    await shared.waitFor();
    expect(await shared.getAttribute("data-status")).toBe("completed");
    expect(await shared.getByTestId("tool-call-args").textContent()).toBe(
      "Arguments and output not shared.",
    );
    expect(await shared.getByTestId("tool-call-files").count()).toBe(0);
    expect(await viewer.page.locator('a[href^="/api/code-files/"]').count()).toBe(0);
    const toggle = shared.getByRole("button", { name: /Run code/ });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await shared.getByText("Not shared.", { exact: true }).count()).toBe(2);
    expect(await axeViolations(viewer.page, ['[data-testid="tool-call"]'])).toEqual([]);
    viewer.expectNoErrors();
    await viewer.close();

    expectNoErrors();
    await close();
  }, 300_000);
});

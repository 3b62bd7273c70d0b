import { readFileSync } from "node:fs";
import type { TSessionExport } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../test-support/export-fixtures";
import { createUser, signInContext } from "./support/accounts";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast } from "./support/ui";

/**
 * Export and import in a real browser: "Import session…" on the dashboard turns a JSON
 * export into a session whose run shows as imported; the session's Export menu downloads
 * it as Markdown and PDF.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const ANSWER = [
  "The sizes per array:",
  "",
  "| Panel | Watts |",
  "| --- | ---: |",
  "| North array | 4200 |",
  "| South array | 6100 |",
  "",
  "```python",
  "def size_inverter(watts):",
  "    return watts * 1.2",
  "```",
].join("\n");

function exportFile(): TSessionExport {
  return handmadeExport({
    title: "Inverter sizing",
    description: "Brought over from another Cohort.",
    question: "Size the inverter for both arrays",
    answer: ANSWER,
  });
}

describe("session export and import", () => {
  it("imports a JSON export on the dashboard and downloads the session as Markdown and PDF", async () => {
    const user = await createUser();
    const guarded = await openPage(browser, {
      viewport: { width: 1360, height: 960 },
      acceptDownloads: true,
    });
    const { page } = guarded;
    await signInContext(page.context(), user.token);
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Import session…" }).waitFor();
    await screenshot(page, "dashboard-import", false);

    await page.getByTestId("import-session-file").setInputFiles({
      name: "inverter-sizing.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(exportFile())),
    });
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await expectToast(page, "Imported “Inverter sizing (imported)”.");
    // A title of its own, told apart from the session it is a copy of.
    await page.getByRole("heading", { level: 1, name: "Inverter sizing (imported)" }).waitFor();
    await expect.poll(() => page.getByTestId("run-imported").count()).toBe(1);
    // The copy says which export it came from (decision 052): the file was exported on
    // 2 January 2026, and the year is said only when it is not this one.
    expect(await page.getByTestId("session-imported").textContent()).toBe(
      new Date().getUTCFullYear() === 2026
        ? "Imported from export of 2 Jan"
        : "Imported from export of 2 Jan 2026",
    );
    await page.getByRole("cell", { name: "North array" }).first().waitFor();
    await screenshot(page, "session-imported");

    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: "Markdown (.md)" }).waitFor();
    await screenshot(page, "session-export-menu", false);
    const [markdown] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "Markdown (.md)" }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe("inverter-sizing-imported.md");
    const text = readFileSync((await markdown.path()) as string, "utf8");
    expect(text.startsWith("# Inverter sizing (imported)\n")).toBe(true);
    expect(text).toContain("| North array | 4200 |");
    expect(text).toContain("imported (cost where it ran, not charged here)");

    await page.getByRole("button", { name: "Session actions" }).click();
    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "PDF (.pdf)" }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe("inverter-sizing-imported.pdf");
    expect(
      readFileSync((await pdf.path()) as string)
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    guarded.expectNoErrors();
    await guarded.close();
  });

  it("says plainly when the file is not an export", async () => {
    const user = await createUser();
    const guarded = await openPage(browser, { viewport: { width: 1360, height: 960 } });
    const { page } = guarded;
    await signInContext(page.context(), user.token);
    await page.goto("/dashboard");
    await page.getByTestId("import-session-file").setInputFiles({
      name: "notes.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify({ ...exportFile(), version: 7 })),
    });
    await expectToast(
      page,
      "This export is version 7, which this server cannot import. Supported: version 1.",
    );
    expect(page.url()).toMatch(/\/dashboard$/);
    // The 400 is the answer the screen expected: the browser logs the failed request only.
    guarded.expectNoErrors([/status of 400/]);
    await guarded.close();
  });
});

import { readFileSync } from "node:fs";
import type { TSessionExport } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const AT = "2026-01-02T03:04:05.000Z";
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
  const ref = { model: "coreason", model_name: "CoReason", provider: "simulator", simulated: true };
  const ids = {
    message: "11111111-1111-4111-8111-111111111111",
    answer: "22222222-2222-4222-8222-222222222222",
    run: "33333333-3333-4333-8333-333333333333",
    step: "44444444-4444-4444-8444-444444444444",
  };
  return {
    format: "cohort.session",
    version: 1,
    exported_at: AT,
    session: {
      id: "55555555-5555-4555-8555-555555555555",
      title: "Inverter sizing",
      description: "Brought over from another Cohort.",
      coordinator_model: "coreason",
      manual_agent_selection: false,
      agent_preferences: null,
      budget_credits: null,
      spent_credits: 1.5,
      status: "active",
      created_at: AT,
    },
    messages: [
      {
        id: ids.message,
        session_id: "old",
        role: "user",
        content: "Size the inverter for both arrays",
        run_id: ids.run,
        created_at: AT,
      },
      {
        id: ids.answer,
        session_id: "old",
        role: "assistant",
        content: ANSWER,
        run_id: ids.run,
        created_at: AT,
      },
    ],
    runs: [
      {
        id: ids.run,
        session_id: "old",
        message_id: ids.message,
        result_message_id: ids.answer,
        status: "completed",
        mode: "automatic",
        coordinator_model: "coreason",
        plan: null,
        critic_score: null,
        total_credits: 1.5,
        input_tokens: 10,
        output_tokens: 20,
        error: null,
        first_seq: 1,
        created_at: AT,
        finished_at: AT,
        steps: [
          {
            id: ids.step,
            kind: "synthesis",
            step_id: null,
            role: null,
            ...ref,
            status: "completed",
            stopped: false,
            input_tokens: 10,
            output_tokens: 20,
            credits: 1.5,
            latency_ms: 5,
            ttft_ms: 1,
            output: ANSWER,
            error: null,
            started_at: AT,
            finished_at: AT,
            version: 1,
            rerun_of: null,
            temperature: null,
            critic_score: null,
          },
        ],
        passages: [],
        cited: [],
        memories: [],
        imported: false,
        critic_verdicts: [],
      },
    ],
    documents: [],
  };
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
    await expectToast(page, "Imported “Inverter sizing”.");
    await expect.poll(() => page.getByTestId("run-imported").count()).toBe(1);
    await page.getByRole("cell", { name: "North array" }).first().waitFor();
    await screenshot(page, "session-imported");

    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: "Markdown (.md)" }).waitFor();
    await screenshot(page, "session-export-menu", false);
    const [markdown] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "Markdown (.md)" }).click(),
    ]);
    expect(markdown.suggestedFilename()).toBe("inverter-sizing.md");
    const text = readFileSync((await markdown.path()) as string, "utf8");
    expect(text.startsWith("# Inverter sizing\n")).toBe(true);
    expect(text).toContain("| North array | 4200 |");
    expect(text).toContain("imported (cost where it ran, not charged here)");

    await page.getByRole("button", { name: "Session actions" }).click();
    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "PDF (.pdf)" }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe("inverter-sizing.pdf");
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

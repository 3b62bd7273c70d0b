import { randomUUID } from "node:crypto";
import type { TSessionExport } from "@cohort/contracts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../test-support/export-fixtures";
import { createUser, signInContext } from "./support/accounts";
import { baseURL, launchBrowser, openPage } from "./support/browser";

/**
 * A long session in a real browser (decision 077): it opens on its newest runs, says how
 * many earlier messages are not loaded, loads them on its own when the reader scrolls up to
 * the top (keeping the reader's place) and with "Load earlier runs".
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const RUNS = 25;

/** A session of RUNS questions, each answered by one run, as an import brings it. */
function longExport(): TSessionExport {
  const template = handmadeExport({ title: "Long session" });
  const [question, reply] = template.messages;
  const [run] = template.runs;
  if (!question || !reply || !run) throw new Error("the handmade export changed");
  const messages: TSessionExport["messages"] = [];
  const runs: TSessionExport["runs"] = [];
  for (let n = 1; n <= RUNS; n++) {
    const at = new Date(Date.UTC(2026, 0, 2, 3, n)).toISOString();
    const ids = { run: randomUUID(), question: randomUUID(), answer: randomUUID() };
    const text = `Answer number ${n}.`;
    messages.push(
      {
        ...question,
        id: ids.question,
        run_id: ids.run,
        content: `Question number ${n}`,
        created_at: at,
        parent_run_id: runs.at(-1)?.id ?? null,
      },
      { ...reply, id: ids.answer, run_id: ids.run, content: text, created_at: at },
    );
    runs.push({
      ...run,
      id: ids.run,
      message_id: ids.question,
      result_message_id: ids.answer,
      created_at: at,
      finished_at: at,
      steps: run.steps.map((step) => ({ ...step, id: randomUUID(), output: text })),
    });
  }
  return { ...template, messages, runs };
}

describe("a long session", () => {
  it("opens on its newest runs and loads earlier ones on request and on scrolling up", async () => {
    const user = await createUser();
    const response = await fetch(`${baseURL()}/api/sessions/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify(longExport()),
    });
    expect(response.status).toBe(201);
    const { session_id } = (await response.json()) as { session_id: string };

    const guarded = await openPage(browser, { viewport: { width: 1360, height: 900 } });
    await signInContext(guarded.page.context(), user.token);
    const { page } = guarded;
    await page.goto(`/chat/${session_id}`);
    await page.getByText("Answer number 25.", { exact: true }).first().waitFor();
    const turns = page.getByTestId("turn");
    const earlier = page.getByTestId("earlier-runs");
    // The newest 10 runs; the 15 before them are waiting above.
    expect(await turns.count()).toBe(10);
    expect(await turns.first().getByText("Question number 16").count()).toBe(1);
    expect(await earlier.locator("p").first().textContent()).toBe(
      "15 earlier messages with their answers",
    );
    expect(await page.getByText("Question number 15", { exact: true }).count()).toBe(0);

    // Scrolling up to the top loads the next page on its own, and the reader stays where
    // they were: the turn that was first on screen has not moved out of view.
    const wasFirst = page.locator('[data-testid="turn"]', { hasText: "Question number 16" });
    await page.evaluate(() => window.scrollTo({ top: 0 }));
    await expect.poll(() => turns.count()).toBe(20);
    expect(await turns.first().getByText("Question number 6").count()).toBe(1);
    expect(await earlier.locator("p").first().textContent()).toBe(
      "5 earlier messages with their answers",
    );
    const top = await wasFirst.evaluate((node) => node.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(900);

    // The button loads the rest, and the loader goes.
    await earlier.getByRole("button", { name: "Load earlier runs" }).click();
    await expect.poll(() => turns.count()).toBe(RUNS);
    expect(await earlier.count()).toBe(0);
    expect(await turns.first().getByText("Question number 1").count()).toBe(1);
    expect(await page.getByText("Answer number 1.", { exact: true }).count()).toBeGreaterThan(0);
    guarded.expectNoErrors();
    await guarded.close();
  });
});

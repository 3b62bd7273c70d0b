import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "./support/axe";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { signUpThroughTheUi } from "./support/ui";

/**
 * Branches and forks (decision 070) in a real browser, on the simulator: a message edited in
 * place with a ‹ 1/2 › pager whose two branches each keep their own run after a reload, and
 * a fork from the Coder's step on another model beside the original.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 960 } };
const RUN_TIMEOUT = 90_000;

async function createSession(page: Page, title: string): Promise<void> {
  await page.goto("/chat");
  await page.getByRole("button", { name: "New session" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Title", { exact: true }).fill(title);
  await dialog.getByLabel("Manual").check();
  for (const [role, on] of [
    ["Strategist", false],
    ["Coder", true],
    ["Designer", false],
    ["Critic", true],
  ] as const) {
    const box = dialog.getByRole("checkbox", { name: role });
    if ((await box.isChecked()) !== on) await box.click();
  }
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(/\/chat\/[\w-]+$/);
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
}

const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });

async function completed(run: Locator): Promise<void> {
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT, interval: 100 })
    .toBe("completed");
}

/** Sends a message and waits for its run's end; returns the run's id. */
async function send(page: Page, text: string): Promise<string> {
  const box = composer(page);
  await expect.poll(() => box.isEnabled()).toBe(true);
  const turns = await page.getByTestId("turn").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("turn").count(), { timeout: 10_000 }).toBe(turns + 1);
  const run = page.getByTestId("turn").last().getByTestId("run");
  await completed(run);
  return (await run.getAttribute("data-run-id")) ?? "";
}

const lastTurn = (page: Page) => page.getByTestId("turn").last();

describe("branches and forks", () => {
  it("edits a message in place: ‹ 1/2 › pages between two branches, each with its own run, after reload", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signUpThroughTheUi(page, { prefix: "branches", firstName: "Ada", lastName: "Lovelace" });
    await createSession(page, "Branches");
    await send(page, "Write a Python function that parses CSV");
    const firstBranchRun = await send(page, "Now add unit tests for the parser");

    // Edit in place: the message is replaced on screen by its new version, with its own run.
    await lastTurn(page).getByRole("button", { name: "Edit this message" }).click();
    const editor = page.getByTestId("message-editor");
    await editor.getByRole("textbox").fill("Now add type hints to the parser");
    await editor.getByRole("button", { name: "Save and send" }).click();
    const pager = lastTurn(page).getByTestId("message-pager");
    await expect.poll(() => pager.textContent(), { timeout: 10_000 }).toBe("‹2/2›");
    const secondRun = lastTurn(page).getByTestId("run");
    await completed(secondRun);
    const secondBranchRun = (await secondRun.getAttribute("data-run-id")) ?? "";
    expect(secondBranchRun).not.toBe(firstBranchRun);
    expect(await page.getByTestId("turn").count()).toBe(2);
    expect(await lastTurn(page).getByTestId("user-message").textContent()).toContain(
      "Now add type hints to the parser",
    );

    // After a reload: the branch on screen, with its own run.
    await page.reload();
    await expect
      .poll(() => lastTurn(page).getByTestId("message-pager").textContent())
      .toBe("‹2/2›");
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-run-id")).toBe(
      secondBranchRun,
    );
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-status")).toBe("completed");

    // By keyboard: the previous branch, with its run; it stays after a reload.
    const previous = lastTurn(page).getByRole("button", { name: "Previous (1 of 2)" });
    await previous.focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => lastTurn(page).getByTestId("message-pager").textContent())
      .toBe("‹1/2›");
    expect(await lastTurn(page).getByTestId("user-message").textContent()).toContain(
      "Now add unit tests for the parser",
    );
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-run-id")).toBe(
      firstBranchRun,
    );
    await page.reload();
    await expect
      .poll(() => lastTurn(page).getByTestId("message-pager").textContent())
      .toBe("‹1/2›");
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-run-id")).toBe(
      firstBranchRun,
    );
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-status")).toBe("completed");

    // And forward again with Tab + Space from the previous button.
    await lastTurn(page).getByRole("button", { name: "Next (2 of 2)" }).focus();
    await page.keyboard.press("Space");
    await expect
      .poll(() => lastTurn(page).getByTestId("message-pager").textContent())
      .toBe("‹2/2›");
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-run-id")).toBe(
      secondBranchRun,
    );

    // The pager (the message's other buttons are the app's shared copy actions, checked
    // where they are built).
    expect(await axeViolations(page, ['[data-testid="message-pager"]'])).toEqual([]);
    await lastTurn(page).evaluate((el) => {
      (el as HTMLElement).style.scrollMarginTop = "120px";
      el.scrollIntoView({ block: "start" });
    });
    await screenshot(page, "chat-branches-pager", false);
    expectNoErrors();
    await close();
  }, 240_000);

  it("forks from the Coder's step on another model, shown beside the original", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signUpThroughTheUi(page, { prefix: "forks", firstName: "Ada", lastName: "Lovelace" });
    await createSession(page, "Forks");
    const originalRun = await send(page, "Write a Python function that parses CSV");

    await lastTurn(page).getByRole("button", { name: "Fork from here…" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Fork from here" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("fork-scope").textContent()).toContain(
      "Runs again: the Coder's step",
    );
    expect(await axeViolations(page, ['[data-testid="fork-dialog"]'])).toEqual([]);
    await dialog.getByLabel("Model for the Coder's step").selectOption("coquick");
    // By keyboard: the instructions, then a tool the Coder may not use (refused, nothing made).
    await dialog.getByLabel("Instructions for the Coder (optional)").focus();
    await page.keyboard.type("Use only the standard library.");
    await page.keyboard.press("Tab");
    const tools = dialog.getByRole("textbox", { name: "Tools for the Coder's step" });
    expect(await tools.evaluate((el) => el === document.activeElement)).toBe(true);
    const planned = await tools.inputValue();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("no_such_tool");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => dialog.getByTestId("fork-error").textContent())
      .toMatch(/^The Coder cannot use "no_such_tool" in this session\./);
    expect(await lastTurn(page).getByTestId("answer-versions-bar").count()).toBe(0);
    await tools.fill(planned);
    await dialog.getByRole("button", { name: "Fork" }).click();

    const bar = lastTurn(page).getByTestId("answer-versions-bar");
    await expect
      .poll(() => bar.getByTestId("answer-pager").textContent(), { timeout: 10_000 })
      .toBe("‹2/2›");
    await expect
      .poll(() => bar.getByTestId("answer-version-label").textContent())
      .toMatch(/^Fork from the Coder's step on /);
    const forkRun = lastTurn(page).getByTestId("run");
    await completed(forkRun);
    const forkId = (await forkRun.getAttribute("data-run-id")) ?? "";
    expect(forkId).not.toBe(originalRun);
    // What the server stored for the fork: the new instructions; the tools left as they were.
    const stored = await page.evaluate(async (runId) => {
      const sessionId = location.pathname.split("/").pop();
      const detail = await (await fetch(`/api/sessions/${sessionId}`)).json();
      const run = detail.runs.find((r: { id: string }) => r.id === runId);
      const step = run.plan.steps.find((s: { id: string }) => s.id === run.fork.step_id);
      return { instructions: run.fork.instructions, tools: run.fork.tools, step: step.tools };
    }, forkId);
    expect(stored.instructions).toBe("Use only the standard library.");
    expect(stored.tools).toBeUndefined();
    expect((stored.step ?? []).join(", ")).toBe(planned);

    // The comparison: per step, the original's model and cost beside the fork's; totals.
    const check = async () => {
      const comparison = lastTurn(page).getByTestId("fork-comparison");
      await comparison.waitFor();
      const rows = comparison.getByTestId("comparison-row");
      const coderRow = rows.filter({ hasText: "Coder" }).first();
      const cells = await coderRow.locator("td").allTextContents();
      expect(cells).toHaveLength(2);
      expect(cells[0]).not.toEqual(cells[1]);
      expect(cells[1]).toMatch(/credits?|free/);
      expect(await comparison.getByTestId("comparison-fork-total").textContent()).toMatch(/\d/);
      expect(await comparison.getByRole("article", { name: "Original answer" }).count()).toBe(1);
      expect(await comparison.getByRole("article", { name: "Fork's answer" }).count()).toBe(1);
    };
    await check();

    // After a reload, the same; the comparison folds away and back by keyboard.
    await page.reload();
    await lastTurn(page).getByTestId("fork-comparison").waitFor();
    await check();
    expect(await lastTurn(page).getByTestId("run").getAttribute("data-run-id")).toBe(forkId);
    const toggle = lastTurn(page).getByRole("button", { name: "Hide the comparison" });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => lastTurn(page).getByTestId("fork-comparison").count()).toBe(0);
    await lastTurn(page).getByRole("button", { name: "Compare with the original" }).focus();
    await page.keyboard.press("Enter");
    await lastTurn(page).getByTestId("fork-comparison").waitFor();
    expect(
      await axeViolations(page, [
        // The table and the bar; the answers' Markdown is the app's one renderer, checked
        // where it is built.
        '[data-testid="comparison-table"]',
        '[data-testid="answer-versions-bar"]',
      ]),
    ).toEqual([]);

    // The original is one page back, as it ended.
    await lastTurn(page).getByRole("button", { name: "Previous (1 of 2)" }).click();
    await expect
      .poll(() => lastTurn(page).getByTestId("run").getAttribute("data-run-id"))
      .toBe(originalRun);
    await lastTurn(page).getByRole("button", { name: "Next (2 of 2)" }).click();
    await lastTurn(page)
      .getByTestId("fork-comparison")
      .evaluate((el) => {
        (el as HTMLElement).style.scrollMarginTop = "120px";
        el.scrollIntoView({ block: "start" });
      });
    await screenshot(page, "chat-fork-comparison", false);
    // The refused tool above is a 400 the dialog shows.
    expectNoErrors([/status of 400.*\/steps\/[^/]+\/fork\)$/]);
    await close();
  }, 240_000);
});

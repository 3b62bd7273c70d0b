import path from "node:path";
import { STEERING_MESSAGES } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext } from "./support/accounts";
import { axeViolations } from "./support/axe";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { useOwnServer } from "./support/own-server";
import { horizontalOverflow } from "./support/ui";

/**
 * Steering the team (decision 069) in a real browser, on the simulator: "Review the
 * plan first" stops the run with its plan editable (reordered, a step removed, one added, a
 * role and a model changed) and the run follows the edited plan; a message sent meanwhile is
 * received and taken into account; Steer on a streaming lane continues it with the note,
 * keeping what it wrote; Skip ends a lane and the answer says so; "Send now" stops a run and
 * starts the new one.
 *
 * Lanes must be caught mid-stream, so this file has a server of its own at a pace of its own
 * (the shared server's pace may change): slow enough that a lane streams for seconds.
 */
useOwnServer({ SIMULATOR_TOKENS_PER_SECOND: "50" });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 1000 } };
const RUN_TIMEOUT = 60_000;

const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
const lane = (run: Locator, role: string) =>
  run.locator(`[data-testid="agent-lane"][data-kind="agent"][data-role="${role}"]`);

async function statusOf(locator: Locator, status: string, timeout = RUN_TIMEOUT): Promise<void> {
  await expect
    .poll(() => locator.getAttribute("data-status"), { timeout, interval: 50 })
    .toBe(status);
}

/** A look at the phone width, for the test's own results (the README shows the desktop). */
async function phoneShot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: path.resolve(import.meta.dirname, `../test-results/screenshots/${name}.png`),
  });
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

/** Scrolls the element to the top of the conversation, below the session's sticky header. */
async function intoView(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    (el as HTMLElement).style.scrollMarginTop = "150px";
    el.scrollIntoView({ block: "start" });
  });
}

/** Waits until the lane has shown some text while it still streams. */
async function streaming(target: Locator): Promise<void> {
  await expect
    .poll(
      async () =>
        Number((await target.getByTestId("lane-output").getAttribute("data-chars")) ?? "0"),
      { timeout: RUN_TIMEOUT, interval: 50 },
    )
    .toBeGreaterThan(40);
  expect(await target.getAttribute("data-status")).toBe("running");
}

describe("steering the team", () => {
  it("reviews and edits the plan, steers a lane, skips one, and sends a message while the team works", async () => {
    const user = await createUser({ firstName: "Grace", lastName: "Hopper" });
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);

    // A new session, a manual team of three, with "Review the plan first" on.
    await page.goto("/chat");
    await page.getByRole("button", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByLabel("Title", { exact: true }).fill("Bakery launch");
    await dialog.getByLabel("Manual").check();
    await dialog.getByRole("checkbox", { name: "Critic" }).uncheck();
    const review = dialog.getByRole("checkbox", { name: STEERING_MESSAGES.reviewPlan });
    expect(await review.isChecked()).toBe(false);
    await review.check();
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    await page.getByTestId("session-review-plan").waitFor();

    await composer(page).fill("Plan the launch of a bakery website with an order form");
    await composer(page).press("Enter");
    const run = page.getByTestId("run").last();
    await statusOf(run, "planned");
    const editor = run.getByTestId("plan-editor");
    await editor.getByRole("heading", { name: STEERING_MESSAGES.planReady }).waitFor();
    const steps = editor.getByTestId("plan-step");
    const ids = () =>
      steps.evaluateAll((items) => items.map((item) => item.getAttribute("data-step-id")));
    expect(await ids()).toEqual(["strategist-1", "coder-2", "designer-3"]);
    expect(await axeViolations(page, ['[data-testid="plan-editor"]'])).toEqual([]);

    // Remove the Designer's step, add one, make it the Designer's on CoDepth, move it to the
    // top; the Strategist works on CoDepth too (longer drafts, caught mid-stream below).
    await editor.getByRole("button", { name: "Remove step designer-3" }).click();
    // The focus moves on to the step before (its own button is gone).
    await expect
      .poll(() => focusedId(page))
      .toBe(await steps.nth(1).getByLabel("Role", { exact: true }).getAttribute("id"));
    await editor.getByRole("button", { name: "Add a step" }).click();
    expect(await ids()).toEqual(["strategist-1", "coder-2", "step-3"]);
    const added = steps.nth(2);
    // The new step's task has the focus: type it.
    const task = added.getByLabel("Task", { exact: true });
    await expect.poll(() => focusedId(page)).toBe(await task.getAttribute("id"));
    await page.keyboard.type("Sketch the order form");
    expect(await task.inputValue()).toBe("Sketch the order form");
    await added.getByLabel("Role", { exact: true }).selectOption("designer");
    await added.getByLabel("Model", { exact: true }).selectOption("codepth");
    // By keyboard: the step's "up" button, twice; it keeps the focus as the step moves.
    await editor.getByRole("button", { name: "Move step step-3 up" }).focus();
    await page.keyboard.press("Enter");
    expect(await ids()).toEqual(["strategist-1", "step-3", "coder-2"]);
    await page.keyboard.press("Enter");
    // At the top its "up" turns off: the focus is on its "down".
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Move step step-3 down");
    expect(await ids()).toEqual(["step-3", "strategist-1", "coder-2"]);
    await steps.nth(1).getByLabel("Model", { exact: true }).selectOption("codepth");
    // A step's instructions, temperature and tools fold away until asked for.
    const first = steps.nth(0);
    await first.getByText("Instructions, temperature and tools").click();
    await first.getByLabel("Instructions for this step").fill("Mobile first; large buttons.");
    expect(await axeViolations(page, ['[data-testid="plan-editor"]'])).toEqual([]);
    await intoView(editor);
    await screenshot(page, "chat-plan-editor", false);
    // On a phone: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBe(0);
    await intoView(editor);
    await phoneShot(page, "chat-plan-editor-mobile");
    await page.setViewportSize(desktop.viewport);
    await editor.getByRole("button", { name: STEERING_MESSAGES.start }).click();

    // The run follows the edited plan: the removed step never runs, the changed models are used.
    await run.getByTestId("plan-checklist").waitFor();
    expect(
      await run
        .getByTestId("plan-checklist")
        .getByTestId("plan-step")
        .evaluateAll((items) => items.map((item) => item.querySelector("p")?.textContent ?? "")),
    ).toEqual([
      expect.stringMatching(/^Designer Sketch the order form/),
      expect.stringMatching(/^Strategist /),
      expect.stringMatching(/^Coder /),
    ]);
    const designer = lane(run, "designer");
    const strategist = lane(run, "strategist");
    const coder = lane(run, "coder");

    // Skip the Designer while it streams; steer the Strategist with a note.
    await streaming(designer);
    expect(await axeViolations(page, ['[data-testid="lane-steer"]'])).toEqual([]);
    await designer.getByRole("button", { name: "Skip this lane" }).focus();
    await page.keyboard.press("Enter");
    await designer.getByTestId("lane-skipped").waitFor();
    // The focus goes from the Skip button (gone) to the note that says the lane was skipped.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("lane-skipped");
    expect(await designer.getByTestId("lane-skipped").textContent()).toBe(
      STEERING_MESSAGES.skipped("Designer"),
    );
    await streaming(strategist);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText keeps the blocks apart, line by line
    const before = await strategist.getByTestId("lane-output").innerText();
    // By keyboard: Steer opens the note with the focus in it; Enter sends it.
    await strategist.getByRole("button", { name: "Steer this lane" }).focus();
    await page.keyboard.press("Enter");
    const note = strategist.getByRole("textbox", { name: "A note for this lane" });
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await note.getAttribute("placeholder")).toBe(STEERING_MESSAGES.steerPlaceholder);
    await page.keyboard.type("focus on the data model, skip the UI");
    await page.keyboard.press("Enter");
    await strategist.getByTestId("lane-steer-note").waitFor();
    expect(await strategist.getByTestId("lane-steer-note").textContent()).toBe(
      "Steered: focus on the data model, skip the UI",
    );
    await expect
      .poll(() => strategist.getByTestId("lane-output").textContent())
      .toContain("Following your note: focus on the data model, skip the UI");
    await intoView(strategist);
    await screenshot(page, "chat-steered-lane", false);

    // A message while the team works: received, then taken at the next step (the Coder's).
    await composer(page).fill("Keep the prices in euros");
    await composer(page).press("Enter");
    const queued = run.getByTestId("queued-message");
    await queued.waitFor();
    expect(await page.getByTestId("composer-queued").textContent()).toBe(STEERING_MESSAGES.queued);
    expect(await queued.locator("p").nth(0).textContent()).toBe("Keep the prices in euros");
    expect(await queued.locator("p").nth(1).textContent()).toBe(STEERING_MESSAGES.queued);
    await intoView(queued);
    await screenshot(page, "chat-queued-message", false);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await horizontalOverflow(page)).toBe(0);
    await phoneShot(page, "chat-steering-mobile");
    await page.setViewportSize(desktop.viewport);

    await statusOf(run, "completed");
    // The plan as edited ran: one Designer lane (the added step, skipped), on CoDepth as chosen.
    expect(await designer.count()).toBe(1);
    expect(await designer.getByText("Task: Sketch the order form").count()).toBe(1);
    expect(await designer.locator("header").textContent()).toContain("CoDepth");
    expect(await strategist.locator("header").textContent()).toContain("CoDepth");
    // The steered lane kept what it wrote and went on with the note, in the same lane.
    const title = before.split("\n")[0] ?? "";
    expect(title.length).toBeGreaterThan(10);
    // biome-ignore lint/performance/useDomNodeTextContent: innerText keeps the blocks apart, line by line
    const after = await strategist.getByTestId("lane-output").innerText();
    expect(after.startsWith(title)).toBe(true);
    // One title: the continuation does not start over.
    const output = strategist.getByTestId("lane-output");
    expect(await output.getByRole("heading").allInnerTexts()).toEqual([title]);
    expect(after).toMatch(/\nFollowing your note: focus on the data model, skip the UI\n/);
    expect(await strategist.getAttribute("data-status")).toBe("completed");
    // The message was taken before the Coder's step, and its prompt carried it.
    expect(await queued.locator("p").nth(1).textContent()).toBe(
      "Taken into account from step coder-2 on.",
    );
    // biome-ignore lint/performance/useDomNodeTextContent: innerText keeps the blocks apart, line by line
    expect(await coder.getByTestId("lane-output").innerText()).toMatch(
      /\nWhat you said while we worked, taken into account\n+Keep the prices in euros$/,
    );
    // The answer says what was skipped.
    // biome-ignore lint/performance/useDomNodeTextContent: innerText keeps the blocks apart, line by line
    expect(await run.getByTestId("final-answer").innerText()).toMatch(
      /\nSkipped at your request\n+the Designer's step step-3: Sketch the order form\n/,
    );

    // The session's settings turn plan review off: the next run goes straight to work.
    await page.getByRole("button", { name: "Session actions" }).click();
    await page.getByRole("menuitem", { name: "Edit details…" }).click();
    const settings = page.getByRole("dialog", { name: "Edit session" });
    const reviewSetting = settings.getByRole("checkbox", { name: STEERING_MESSAGES.reviewPlan });
    expect(await reviewSetting.isChecked()).toBe(true);
    await reviewSetting.uncheck();
    await settings.getByRole("button", { name: "Save" }).click();
    await settings.waitFor({ state: "detached" });
    expect(await page.getByTestId("session-review-plan").count()).toBe(0);

    // "Send now" while the team works: the run stops and the new message's run starts.
    await composer(page).fill("Write a short FAQ for the bakery");
    await composer(page).press("Enter");
    const turns = page.getByTestId("turn");
    await expect.poll(() => turns.count()).toBe(2);
    const second = turns.nth(1).getByTestId("run");
    const secondLane = lane(second, "strategist");
    await streaming(secondLane);
    // The note, open, passes axe; Escape closes it and gives the focus back to Steer.
    await secondLane.getByRole("button", { name: "Steer this lane" }).click();
    await secondLane.getByRole("textbox", { name: "A note for this lane" }).waitFor();
    expect(await axeViolations(page, ['[data-testid="lane-steer"]'])).toEqual([]);
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Steer this lane");
    await composer(page).fill("Only the order form, please");
    await page.getByRole("button", { name: STEERING_MESSAGES.sendNow }).click();
    await statusOf(second, "cancelled");
    await expect.poll(() => turns.count()).toBe(3);
    expect(await turns.nth(2).getByTestId("user-message").textContent()).toContain(
      "Only the order form, please",
    );
    await statusOf(turns.nth(2).getByTestId("run"), "running");
    expectNoErrors();
    await close();
  }, 120_000);
});

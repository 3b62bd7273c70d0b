import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { signUpThroughTheUi } from "./support/ui";

/**
 * The chat actions of decision 031 in a real browser, on the built-in simulator: re-run one
 * agent's step with another model and see both versions with their cost and score; copy,
 * regenerate, edit and resend; the composer's focus; a stopped lane's usage; the budget.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 960 } };
const RUN_TIMEOUT = 90_000;

/** The error codes of the 403 answers the page got. */
function watchRefusals(page: Page): string[] {
  const codes: string[] = [];
  page.on("response", (response) => {
    if (response.status() !== 403) return;
    void response
      .json()
      .then((body: { error?: { code?: string } }) => codes.push(body.error?.code ?? "unknown"))
      .catch(() => codes.push("unreadable"));
  });
  return codes;
}

async function signUp(page: Page): Promise<void> {
  await signUpThroughTheUi(page, { prefix: "actions", firstName: "Ada", lastName: "Lovelace" });
}

/** A session of the Coder and the Critic (manual team), made in the dialog. */
async function createSession(page: Page, title: string, budget?: string): Promise<void> {
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
  if (budget) await dialog.getByLabel("Credit budget (optional)").fill(budget);
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(/\/chat\/[\w-]+$/);
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
}

function composer(page: Page): Locator {
  return page.getByRole("textbox", { name: "Message" });
}

async function send(page: Page, text: string): Promise<Locator> {
  const box = composer(page);
  await expect.poll(() => box.isEnabled()).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(runs + 1);
  const id = await page.getByTestId("run").last().getAttribute("data-run-id");
  return page.locator(`[data-testid="run"][data-run-id="${id}"]`);
}

async function completed(run: Locator): Promise<void> {
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT, interval: 100 })
    .toBe("completed");
}

describe("chat actions", () => {
  it("re-runs a step with another model and shows both versions with cost and score; copy, regenerate, edit", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      ...desktop,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const refusals = watchRefusals(page);
    await signUp(page);
    await createSession(page, "Parser work");
    // A new session: the message box has the focus, ready to type.
    await expect
      .poll(() => composer(page).evaluate((el) => el === document.activeElement))
      .toBe(true);

    const task = "Write a Python function that parses CSV rows into dictionaries";
    const run = await send(page, task);
    await completed(run);
    const coder = run.locator('[data-testid="agent-lane"][data-role="coder"]').first();
    const firstModel = await coder.locator("header").first().textContent();

    // Re-run the Coder's step on another model, scored by the Critic.
    await coder.getByRole("button", { name: "Re-run with another model…" }).click();
    const form = run.getByTestId("rerun-form");
    const model = form.getByLabel("Model");
    // The picker starts on the step's current model; the user picks another.
    const current = await model.inputValue();
    expect(await model.locator(`option[value="${current}"]`).textContent()).toContain(
      "(current model)",
    );
    const other = await model
      .locator("option")
      .evaluateAll(
        (options, now) =>
          options.map((o) => (o as HTMLOptionElement).value).find((value) => value !== now),
        current,
      );
    if (!other) throw new Error("No other model for the Coder");
    const nameOf = async (value: string) =>
      ((await model.locator(`option[value="${value}"]`).textContent()) ?? "")
        .split(" · ")[0]
        ?.replace(/ \(current model\)$/, "");
    const currentName = await nameOf(current);
    const otherName = await nameOf(other);
    await model.selectOption(other);
    await form.getByLabel("Temperature").fill("0.4");
    expect(await form.getByLabel("The Critic scores the new version").isChecked()).toBe(true);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, "chat-rerun-form", false);
    await form.getByRole("button", { name: "Re-run step" }).click();

    const versions = run.getByTestId("step-versions");
    await versions.waitFor({ timeout: RUN_TIMEOUT });
    // While it runs, the box waits and Stop is offered.
    await expect
      .poll(
        async () =>
          (await versions
            .locator('[data-testid="agent-lane"][data-status="completed"]')
            .count()) === 2
            ? (await versions.getByTestId("version-score").allTextContents()).join(" | ")
            : "",
        { timeout: RUN_TIMEOUT, interval: 100 },
      )
      .toMatch(/^Critic \d+(\.\d)?\/10 \| Critic \d+(\.\d)?\/10$/);
    const cards = versions.getByTestId("step-version");
    expect(await cards.count()).toBe(2);
    // The Critic's review of the drafts with v2 in them, folded under v2.
    expect(await cards.nth(1).getByTestId("version-review").count()).toBe(1);
    expect(await cards.nth(0).getByTestId("version-review").count()).toBe(0);
    const summaries = await versions.getByTestId("version-summary").allTextContents();
    expect(summaries[0]).toMatch(/^v1 · \S+/);
    expect(summaries[1]).toMatch(/^v2 · .* · temperature 0\.4/);
    for (const cost of await versions.getByTestId("version-cost").allTextContents()) {
      expect(cost).toMatch(/^\d+\.\d\d credits?/);
    }
    const secondModel = await cards.nth(1).locator("header").first().textContent();
    expect(secondModel).not.toBe(firstModel);
    expect(await cards.nth(1).getByTestId("lane-output").textContent()).not.toBe("");
    // Another model drafts differently (decision 065), and each footer names its own model.
    expect(await cards.nth(1).getByTestId("lane-output").textContent()).not.toBe(
      await cards.nth(0).getByTestId("lane-output").textContent(),
    );
    const footers = await versions.getByTestId("lane-model").allTextContents();
    expect(footers).toEqual([` · by ${currentName}`, ` · by ${otherName}`]);
    // The run itself is unchanged: its answer and its total stay.
    expect(await run.getAttribute("data-status")).toBe("completed");
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    await versions.scrollIntoViewIfNeeded();
    await screenshot(page, "chat-step-versions", false);

    // One version at a time, then side by side again.
    await versions.getByRole("button", { name: "v2", exact: true }).click();
    expect(await cards.count()).toBe(1);
    expect(await cards.first().getAttribute("data-version")).toBe("2");
    await versions.getByRole("button", { name: "Side by side" }).click();
    expect(await cards.count()).toBe(2);

    // The versions survive a reload (stored rows, not only live events).
    await page.reload();
    await page.getByTestId("step-versions").waitFor();
    expect(await page.getByTestId("step-version").count()).toBe(2);

    // Re-write the answer with v2: the run's answer and the new one, each with its cost.
    const v2 = page.getByTestId("step-version").nth(1);
    await v2.getByRole("button", { name: "Re-write the answer with v2" }).click();
    const answers = page.getByTestId("answer-versions");
    await answers.waitFor({ timeout: RUN_TIMEOUT });
    await expect
      .poll(async () => (await answers.getByTestId("answer-cost").allTextContents()).join(" | "), {
        timeout: RUN_TIMEOUT,
        interval: 100,
      })
      .toMatch(/^\d+\.\d\d credits? \| \d+\.\d\d credits?$/);
    const answerCards = answers.getByTestId("answer-version");
    expect(await answerCards.count()).toBe(2);
    const answerTitles = await answers.getByTestId("answer-summary").allTextContents();
    expect(answerTitles[0]).toMatch(/^Original · the run's answer/);
    expect(answerTitles[1]).toMatch(/^With the Coder's v2/);
    expect(answerTitles[1]).toMatch(/Drafts scored \d+(\.\d)?\/10 by the Critic$/);
    const rewritten = answerCards.nth(1).getByTestId("answer-version-card");
    expect(await rewritten.textContent()).toContain("Summary");
    await v2.getByText("Answer re-written with v2").waitFor();
    // The run's own answer, total and status stay.
    expect(await run.getAttribute("data-status")).toBe("completed");
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    // The versions' tabs and summaries at the top, clear of the session's sticky header.
    await answers.evaluate((el) => {
      (el as HTMLElement).style.scrollMarginTop = "120px";
      el.scrollIntoView({ block: "start" });
    });
    await screenshot(page, "chat-answer-versions", false);

    // One answer at a time, then side by side again; both survive a reload.
    await answers.getByRole("button", { name: "With the Coder's v2" }).click();
    expect(await answerCards.count()).toBe(1);
    expect(await answerCards.first().getAttribute("data-version")).toBe("2");
    await answers.getByRole("button", { name: "Side by side" }).click();
    expect(await answerCards.count()).toBe(2);
    const costs = await answers.getByTestId("answer-cost").allTextContents();
    await page.reload();
    await page.getByTestId("answer-versions").waitFor();
    expect(await page.getByTestId("answer-version").count()).toBe(2);
    expect(await page.getByTestId("answer-cost").allTextContents()).toEqual(costs);

    // Copy the answer as Markdown and as plain text.
    const answer = page.getByTestId("final-answer").last();
    await answer.getByRole("button", { name: "Copy the final answer as Markdown" }).click();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toContain("## Summary");
    await answer.getByRole("button", { name: "Copy the final answer as plain text" }).click();
    await answer.getByText("Copied as text").waitFor();
    const plain = await page.evaluate(() => navigator.clipboard.readText());
    expect(plain).toContain("Summary");
    expect(plain).not.toContain("##");

    // Regenerate: a new version of the answer to the same message, behind a ‹ 1/2 › pager
    // (decision 070); the first stays one page back.
    await answer.getByRole("button", { name: "Regenerate" }).click();
    const confirm = page.getByRole("dialog", { name: "Run this message again?" });
    await confirm.getByTestId("cost-estimate").waitFor();
    await confirm.getByRole("button", { name: "Run again" }).click();
    const answerPager = page.getByTestId("answer-pager");
    await expect.poll(() => answerPager.textContent(), { timeout: 10_000 }).toContain("2/2");
    const again = page.getByTestId("run").last();
    await again.getByTestId("regenerated").waitFor();
    await completed(again);
    expect(await page.getByTestId("user-message").count()).toBe(1);

    // Edit in place: a new version of the message (a branch) with its own run; the original
    // and its runs stay one page back.
    await page
      .getByTestId("user-message")
      .getByRole("button", { name: "Edit this message" })
      .click();
    const editor = page.getByTestId("message-editor");
    const edited = editor.getByRole("textbox");
    expect(await edited.inputValue()).toBe(task);
    expect(await edited.evaluate((el) => el === document.activeElement)).toBe(true);
    await edited.fill(`${task}, with a header row`);
    await editor.getByRole("button", { name: "Save and send" }).click();
    await expect
      .poll(() => page.getByTestId("message-pager").textContent(), { timeout: 10_000 })
      .toContain("2/2");
    await completed(page.getByTestId("run").last());
    expect(await page.getByTestId("user-message").count()).toBe(1);

    // A CSRF token that went stale at sign-in is refused once and retried by the API client
    // (decision 003): the browser logs that 403, which is no error of these actions.
    expect(refusals.filter((code) => code !== "csrf_invalid")).toEqual([]);
    expectNoErrors(refusals.length > 0 ? [/status of 403/] : []);
    await close();
  }, 180_000);

  it("shows a stopped lane's real usage, and a budget refusal with spent and cap that is raised inline", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    const refusals = watchRefusals(page);
    await signUp(page);
    // A budget below the smallest possible run: refused before planning (decision 053).
    await createSession(page, "Tight budget", "0.01");

    // Nothing spent: the refusal says so, with the cap, and the cap is raised right there.
    await composer(page).fill("Write a CSV parser");
    await composer(page).press("Enter");
    const error = page.getByTestId("send-error");
    await error.waitFor();
    expect(await error.getByTestId("refusal-title").textContent()).toBe(
      "The session's budget does not cover the next step",
    );
    expect(await error.textContent()).toMatch(
      /This session's budget leaves 0\.01 credits and the smallest step needs \d+\.\d\d\./,
    );
    expect(await error.textContent()).not.toMatch(/used up/i);
    await screenshot(page, "chat-budget-refused", false);
    await error.getByLabel("New budget (credits)").fill("100");
    await error.getByRole("button", { name: "Raise budget" }).click();
    await expect.poll(() => page.getByTestId("send-error").count()).toBe(0);
    expect(await page.getByTestId("session-spent").textContent()).toMatch(/of 100/);

    // The draft was kept: send it now, and stop while the Coder streams.
    expect(await composer(page).inputValue()).toBe("Write a CSV parser");
    await composer(page).press("Enter");
    await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(1);
    const run = page.getByTestId("run").last();
    const lane = run.locator('[data-testid="agent-lane"][data-kind="agent"]').first();
    await expect
      .poll(
        async () => Number((await lane.getByTestId("lane-output").getAttribute("data-chars")) ?? 0),
        {
          timeout: RUN_TIMEOUT,
          interval: 50,
        },
      )
      .toBeGreaterThan(40);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => run.getAttribute("data-status"), { timeout: 10_000 }).toBe("cancelled");
    await expect.poll(() => lane.getAttribute("data-status")).toBe("stopped");
    const usage = await lane.getByTestId("lane-usage").textContent();
    // What the stopped lane showed is charged (decision 053).
    expect(usage).toMatch(/^≈ \d+ tokens used · ≈ \d+\.\d\d credits? charged \(stopped\)$/);
    expect(usage).not.toMatch(/^≈ 0 tokens/);
    await screenshot(page, "chat-stopped-lane", false);

    expect(refusals.filter((code) => code !== "csrf_invalid")).toEqual([]);
    expectNoErrors(refusals.length > 0 ? [/status of 402/, /status of 403/] : [/status of 402/]);
    await close();
  });
});

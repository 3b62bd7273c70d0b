import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { horizontalOverflow, signUpThroughTheUi } from "./support/ui";

/**
 * Cohort Chat in a real browser against the built server and its built-in simulator
 * (SIMULATOR_TOKENS_PER_SECOND=120 in global-setup: a run takes seconds, slow enough to
 * stop or reload one mid-stream).
 */
let browser: Browser;
beforeAll(async () => {
  // The main flow, in the full browser a person runs (the other files may use the shell).
  browser = await launchBrowser({ full: true });
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const RUN_TIMEOUT = 90_000;

async function signUp(page: Page): Promise<void> {
  await signUpThroughTheUi(page, { prefix: "chat", firstName: "Grace", lastName: "Hopper" });
  await page.goto("/dashboard");
}

function latestRun(page: Page): Locator {
  return page.getByTestId("run").last();
}

async function runStatus(run: Locator): Promise<string | null> {
  return run.getAttribute("data-status");
}

/** Sends a task and returns the run it started once it is on screen. */
async function sendTask(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled()).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  await expect.poll(() => page.getByTestId("run").count(), { timeout: 10_000 }).toBe(runs + 1);
  const id = await latestRun(page).getAttribute("data-run-id");
  return page.locator(`[data-testid="run"][data-run-id="${id}"]`);
}

interface LaneText {
  /** Characters of Markdown received (the lane's raw stream). */
  chars: number;
  /** What the reader sees. */
  text: string;
}

/** Lane outputs by role and kind ("coder/agent"), as they are on screen now. */
async function laneTexts(run: Locator): Promise<Record<string, LaneText>> {
  return run.getByTestId("agent-lane").evaluateAll((lanes) =>
    Object.fromEntries(
      lanes.map((lane) => {
        const output = lane.querySelector('[data-testid="lane-output"]');
        return [
          `${lane.getAttribute("data-role")}/${lane.getAttribute("data-kind")}`,
          {
            chars: Number(output?.getAttribute("data-chars") ?? 0),
            text: output?.textContent ?? "",
          },
        ];
      }),
    ),
  );
}

function words(text: string): string[] {
  return text.match(/[A-Za-z0-9]{2,}/g) ?? [];
}

/**
 * Everything a lane showed before is still there, in order. Streaming Markdown is re-read on
 * every delta (a half-written `**bold` turns bold once closed, a code fence gains its header),
 * so this compares the words in order, leaving out the last one, which may have been cut.
 */
function keepsEverything(before: LaneText, after: LaneText | undefined): boolean {
  if (!after || after.chars < before.chars) return false;
  const expected = words(before.text).slice(0, -1);
  const actual = words(after.text);
  let i = 0;
  for (const word of actual) if (word === expected[i]) i += 1;
  return i === expected.length;
}

/** A screenshot of the whole page with the layout it has when everything fits on screen. */
async function tallScreenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? desktop.viewport;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, 6000) });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name, false);
  await page.setViewportSize(viewport);
}

describe("Cohort Chat", () => {
  it("runs a session from sign-up: plan, parallel lanes, critic, answer; stops a run; survives a reload mid-run", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      ...desktop,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    await signUp(page);

    // The dashboard: nothing yet, zero usage, a way to start.
    await page.getByRole("heading", { name: "Recent sessions" }).waitFor();
    await page.getByText("No sessions yet.", { exact: false }).waitFor();
    expect(await page.getByTestId("usage-requests").textContent()).toBe("0");
    await page.getByRole("link", { name: "New session" }).click();

    // The new-session dialog: title, description, coordinator, automatic/manual, per-role models.
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.waitFor();
    expect(new URL(page.url()).pathname).toBe("/chat");
    await dialog.getByLabel("Title", { exact: true }).fill("Recipe app launch");
    await dialog
      .getByLabel("Description (optional)")
      .fill("A small team wants a landing page with a signup form for a recipe sharing app.");
    const coordinator = dialog.getByLabel("Coordinator model");
    await expect.poll(() => coordinator.locator("option").count()).toBeGreaterThan(1);
    expect(await coordinator.inputValue()).toBe("coreason");
    // No provider keys on the test server: every model is the clearly labelled simulator.
    expect(await dialog.getByTestId("simulated-badge").count()).toBeGreaterThan(0);
    await dialog.getByLabel("Manual").check();
    expect(await dialog.getByRole("checkbox", { name: "Designer" }).isChecked()).toBe(true);
    await dialog.getByLabel("Automatic").check();
    // Automatic: no role can be switched off (the run settings keep their own checkboxes).
    const roles = dialog.getByRole("list", { name: "Agent roles" });
    expect(await roles.getByRole("checkbox").count()).toBe(0);
    expect(await dialog.getByRole("checkbox", { name: "Review the plan first" }).isChecked()).toBe(
      false,
    );
    await dialog.getByLabel("Credit budget (optional)").fill("40");
    await dialog.locator("form").evaluate((form) => form.parentElement?.scrollTo(0, 0));
    await screenshot(page, "chat-new-session", false);
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    await page.getByRole("heading", { level: 1, name: "Recipe app launch" }).waitFor();
    expect(
      await page
        .getByTestId("session-list")
        .getByRole("link", { name: /Recipe app launch/ })
        .count(),
    ).toBe(1);
    // The list searches by title.
    const list = page.getByTestId("session-list");
    await list.getByRole("searchbox").fill("no such title");
    await list.getByText("No session titled like", { exact: false }).waitFor();
    await list.getByRole("searchbox").fill("recipe");
    await list.getByRole("link", { name: /Recipe app launch/ }).waitFor();

    // Status controls: a paused session takes no messages until it is resumed.
    const messageBox = page.getByRole("textbox", { name: "Message" });
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByTestId("session-header").getByText("Paused").waitFor();
    await expect.poll(() => messageBox.isDisabled()).toBe(true);
    expect(await messageBox.getAttribute("placeholder")).toBe(
      "This session is paused. Resume it to send a message.",
    );
    await page.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => messageBox.isEnabled()).toBe(true);

    // First run: the message shows at once, the box stays usable for a note to the team
    // (decision 069), the plan ticks off live.
    const task = "Build a landing page for a recipe sharing app with a signup form";
    // The plan forms on screen as the coordinator writes it (decision 079): recorded by an
    // observer, since the final plan replaces it about a second later.
    await page.evaluate(() => {
      const seen = { rationale: "", steps: 0 };
      Object.assign(window, { planForming: seen });
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="plan-draft-rationale"]')?.textContent;
        if (text && text.length > seen.rationale.length) seen.rationale = text;
        const steps = document.querySelectorAll('[data-testid="plan-draft-step"]').length;
        seen.steps = Math.max(seen.steps, steps);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const first = await sendTask(page, task);
    await page.getByTestId("user-message").getByText(task).waitFor();
    await expect
      .poll(() => messageBox.getAttribute("placeholder"))
      .toBe("Add a note for the team, or Send now to start over with it…");
    expect(await messageBox.isDisabled()).toBe(false);
    await page.getByRole("button", { name: "Stop" }).waitFor();
    await first.getByTestId("plan-checklist").waitFor({ timeout: RUN_TIMEOUT });
    const steps = first.getByTestId("plan-step");
    expect(await steps.count()).toBeGreaterThanOrEqual(2);
    const forming = await page.evaluate(
      () =>
        (window as unknown as { planForming: { rationale: string; steps: number } }).planForming,
    );
    expect(forming.rationale).toMatch(/^Why this team: \S/);
    expect(forming.steps).toBeGreaterThanOrEqual(1);
    expect(await first.getByTestId("plan-forming").count()).toBe(0);

    // Lanes stream in parallel, each with its model badge, while steps tick off.
    let sawParallel = false;
    let sawTickWhileRunning = false;
    await expect
      .poll(
        async () => {
          const running = await first
            .locator('[data-testid="agent-lane"][data-status="running"]')
            .count();
          if (running >= 2) sawParallel = true;
          const status = await runStatus(first);
          const done = await first.locator('[data-testid="plan-step"][data-state="done"]').count();
          if (done > 0 && status !== "completed") sawTickWhileRunning = true;
          return status;
        },
        { timeout: RUN_TIMEOUT, interval: 100 },
      )
      .toBe("completed");
    expect(sawParallel).toBe(true);
    expect(sawTickWhileRunning).toBe(true);

    const run = first;
    expect(await run.locator('[data-testid="plan-step"]:not([data-state="done"])').count()).toBe(0);
    const lanes = run.getByTestId("agent-lane");
    expect(await lanes.count()).toBeGreaterThanOrEqual(2);
    for (const lane of await lanes.all()) {
      expect(await lane.getAttribute("data-status")).toBe("completed");
      expect(await lane.getByTestId("simulated-badge").count()).toBe(1);
      expect(await lane.getByTestId("lane-usage").textContent()).toMatch(
        /\d+ tokens · \d+\.\d\d credits? · .+ · by \S/,
      );
    }
    const critic = run.getByTestId("critic-verdict");
    expect(await critic.getByTestId("critic-score").textContent()).toMatch(/^\d+$/);
    const answer = run.getByTestId("final-answer");
    expect(await answer.getByRole("heading", { name: "Summary" }).count()).toBe(1);
    expect(await answer.getByTestId("simulated-badge").count()).toBe(1);
    expect(await run.getByTestId("run-total").textContent()).toMatch(/^Total: \d+\.\d\d credits/);
    expect(await page.getByTestId("run-announcer").textContent()).toContain("Final answer ready.");
    expect(await page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    expect(await page.getByTestId("session-spent").textContent()).toMatch(/of 40/);

    // Code from the Coder is highlighted and can be copied.
    const coderLane = run.locator('[data-testid="agent-lane"][data-role="coder"]').first();
    if ((await coderLane.count()) > 0) {
      const copy = coderLane.getByRole("button", { name: "Copy" }).first();
      await copy.click();
      await coderLane.getByRole("button", { name: "Copied" }).first().waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.length).toBeGreaterThan(20);
      expect(await coderLane.locator("code span.text-violet-300").count()).toBeGreaterThan(0);
    }
    // Not "chat-run": the README's chat-run.png has one writer, scripts/take-screenshots.mjs.
    await tallScreenshot(page, "chat-build-run");

    // Second run: Stop while the agents stream; what they wrote stays.
    const second = await sendTask(page, "Write a short launch email for the recipe app");
    await expect
      .poll(async () => Object.values(await laneTexts(second)).some((lane) => lane.chars > 0), {
        timeout: RUN_TIMEOUT,
        interval: 50,
      })
      .toBe(true);
    const beforeStop = await laneTexts(second);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => runStatus(second), { timeout: 10_000 }).toBe("cancelled");
    await second.getByTestId("run-stopped").waitFor();
    expect(await second.getByTestId("run-status").textContent()).toBe("Stopped");
    const afterStop = await laneTexts(second);
    for (const [lane, text] of Object.entries(beforeStop)) {
      expect(keepsEverything(text, afterStop[lane])).toBe(true);
    }
    // The first run is folded away now, its answer still readable.
    const earlier = first;
    expect(await earlier.locator("details").count()).toBe(1);
    expect(await earlier.getByTestId("final-answer").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);

    // Shift+Enter is a new line, not a send.
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("first line");
    await box.press("Shift+Enter");
    await box.pressSequentially("second line");
    expect(await box.inputValue()).toBe("first line\nsecond line");
    expect(await page.getByTestId("run").count()).toBe(2);
    await box.fill("");

    // Third run: reload mid-run; everything streamed before is there after.
    const third = await sendTask(page, "Plan the database schema for recipes, users and ratings");
    await expect
      .poll(
        async () =>
          Object.values(await laneTexts(third)).reduce((sum, lane) => sum + lane.chars, 0),
        {
          timeout: RUN_TIMEOUT,
          interval: 50,
        },
      )
      .toBeGreaterThan(80);
    const beforeReload = await laneTexts(third);
    const statusBeforeReload = await runStatus(third);
    expect(statusBeforeReload).not.toBe("completed");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Recipe app launch" }).waitFor();
    await expect
      .poll(
        async () => {
          const after = await laneTexts(third);
          return Object.entries(beforeReload).every(([lane, text]) =>
            keepsEverything(text, after[lane]),
          );
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(true);
    await expect.poll(() => runStatus(third), { timeout: RUN_TIMEOUT }).toBe("completed");
    const afterReload = await laneTexts(third);
    for (const [lane, text] of Object.entries(beforeReload)) {
      expect(keepsEverything(text, afterReload[lane])).toBe(true);
    }
    // Three runs, each shown once: replay after the reload duplicated nothing.
    expect(await page.getByTestId("run").count()).toBe(3);
    expect(await page.getByTestId("user-message").count()).toBe(3);

    // A session whose last run completed is offered Archive, not Pause (decision 065).
    const header = page.getByTestId("session-header");
    // (The header follows the session list's refresh after the run's end: waited for.)
    await expect.poll(() => header.getByRole("button", { name: "Archive" }).count()).toBe(1);
    expect(await header.getByRole("button", { name: "Pause" }).count()).toBe(0);

    // The phone layout: one column, lanes stacked, the session list in a drawer.
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await horizontalOverflow(page)).toBe(0);
    // The newest run, from its plan down to the first lanes (below the phone's top bar).
    await third.evaluate((run) =>
      window.scrollTo(0, run.getBoundingClientRect().top + window.scrollY - 64),
    );
    await screenshot(page, "chat-mobile", false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("button", { name: "Open sessions" }).click();
    const drawer = page.getByRole("dialog", { name: "Sessions" });
    await drawer.getByRole("link", { name: /Recipe app launch/ }).waitFor();
    await page.keyboard.press("Escape");
    await page.setViewportSize(desktop.viewport);

    // The dashboard now lists the session and counts the usage.
    await page.goto("/dashboard");
    await page.getByTestId("recent-sessions").getByText("Recipe app launch").waitFor();
    await expect
      .poll(async () => Number(await page.getByTestId("usage-requests").textContent()))
      .toBeGreaterThan(0);
    await screenshot(page, "dashboard");

    expectNoErrors();
    await close();
  }, 240_000);

  it("shows Disconnected, then Reconnecting, then Reconnected when the network drops", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signUp(page);
    await page.goto("/chat");
    await page.getByRole("heading", { level: 1, name: "Cohort Chat" }).waitFor();
    const indicator = page.getByTestId("connection-indicator");
    // Hidden while connected.
    await page.waitForTimeout(1_000);
    expect(await indicator.count()).toBe(0);

    await page.context().setOffline(true);
    await expect
      .poll(() => indicator.getAttribute("data-state"), { timeout: 60_000 })
      .toBe("disconnected");
    expect(await indicator.textContent()).toContain("Disconnected");
    expect(await page.getByTestId("connection-announcer").textContent()).toBe("Connection lost");
    await expect
      .poll(() => indicator.getAttribute("data-state"), { timeout: 5_000 })
      .toBe("reconnecting");
    expect(await page.getByTestId("connection-announcer").textContent()).toBe(
      "Attempting to reconnect",
    );

    await page.context().setOffline(false);
    await expect
      .poll(() => indicator.getAttribute("data-state"), { timeout: 30_000 })
      .toBe("reconnected");
    expect(await page.getByTestId("connection-announcer").textContent()).toBe(
      "Connection restored",
    );
    await expect.poll(() => indicator.count(), { timeout: 5_000 }).toBe(0);

    expectNoErrors([/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/]);
    await close();
  }, 120_000);
});

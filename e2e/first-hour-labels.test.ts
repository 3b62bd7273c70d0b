import type { TSessionDetailResponse } from "@cohort/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, signInContext, type TestUser } from "./support/accounts";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";

/**
 * A new user's first hour, labels that disagreed with the screen (decision 057): after one finished run, the header's
 * badge and actions, the session list, the lanes' count and each draft's own Critic score
 * (the ring keeps the overall verdict), the re-run picker's default, and the Markdown
 * export's status and model names.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1440, height: 1000 }, acceptDownloads: true };
const RUN_TIMEOUT = 90_000;
const TITLE = "Library fines";

async function detailOf(user: TestUser, sessionId: string): Promise<TSessionDetailResponse> {
  const response = await fetch(`${baseURL()}/api/sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as TSessionDetailResponse;
}

async function startSession(page: Page): Promise<string> {
  await page.goto("/chat?new=1");
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Title", { exact: true }).fill(TITLE);
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(/\/chat\/[\w-]+$/);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled()).toBe(true);
  const task =
    "Design the overdue-fine rules for a small library's lending service: a daily fine, a cap per loan, and a data model for books, members and loans.";
  await box.fill(task);
  // The box holds the task when Enter is pressed (once, on a loaded machine, it did not and
  // no run came).
  await expect.poll(() => box.inputValue()).toBe(task);
  await box.press("Enter");
  const run = page.getByTestId("run").last();
  await run.waitFor();
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT })
    .toBe("completed");
  return new URL(page.url()).pathname.split("/").at(-1) as string;
}

/** What the lanes, the ring and the collapsed summary say must match the stored run. */
async function expectScoresAndLanes(page: Page, detail: TSessionDetailResponse): Promise<void> {
  const stored = detail.runs[0];
  if (!stored) throw new Error("No run stored");
  const drafts = stored.draft_scores ?? {};
  const agentSteps = stored.steps.filter((s) => s.kind === "agent" && s.rerun_of === null);
  const laneSteps = stored.steps.filter(
    (s) => (s.kind === "agent" || s.kind === "critic") && s.rerun_of === null,
  );
  expect(Object.keys(drafts).length).toBeGreaterThan(0);
  const run = page.getByTestId("run").last();
  const lanes = run.getByTestId("agent-lanes").getByTestId("agent-lane");
  await lanes.first().waitFor();
  expect(await lanes.count()).toBe(laneSteps.length);
  expect(
    await run.getByRole("heading", { name: `Agents · ${laneSteps.length} lanes` }).count(),
  ).toBe(1);
  // Each draft shows its own score; the ring shows the overall verdict.
  for (const step of agentSteps) {
    const lane = run.locator(
      `[data-testid="agent-lane"][data-kind="agent"][data-role="${step.role}"]`,
    );
    const score = drafts[step.step_id ?? ""];
    const shown = lane.getByTestId("lane-critic-score");
    if (score === undefined) expect(await shown.count()).toBe(0);
    else expect(await shown.textContent()).toBe(`Critic ${score}/10`);
  }
  expect(await run.getByTestId("critic-score").textContent()).toBe(String(stored.critic_score));
}

describe("labels that agree with the screen", () => {
  it("names a finished run's state, lanes, scores and models as the screen does", async () => {
    const user = await createUser({ firstName: "Lena", lastName: "Label" });
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    const sessionId = await startSession(page);
    const header = page.getByTestId("session-header");

    // The badge reads Completed: no "Mark complete" beside it, nor in the menu.
    await expect.poll(() => header.getByTestId("session-status").textContent()).toBe("Completed");
    // Nor "Pause": a completed session is offered Archive, and nothing that means "stop work".
    expect(await header.getByRole("button", { name: "Mark complete" }).count()).toBe(0);
    expect(await header.getByRole("button", { name: "Pause" }).count()).toBe(0);
    expect(await header.getByRole("button", { name: "Archive" }).count()).toBe(1);
    await header.getByRole("button", { name: "Session actions" }).click();
    const menu = page.getByRole("menu");
    await menu.waitFor();
    expect(await menu.getByRole("menuitem", { name: "Mark complete" }).count()).toBe(0);
    expect(await menu.getByRole("menuitem", { name: "Pause" }).count()).toBe(0);
    expect(await menu.getByRole("menuitem", { name: "Archive" }).count()).toBe(1);
    await page.keyboard.press("Escape");

    // No "No description" under a session that has none.
    const list = page.getByRole("complementary", { name: "Your sessions" });
    await list.getByText(TITLE).waitFor();
    expect(await list.getByText("No description").count()).toBe(0);

    const detail = await detailOf(user, sessionId);
    await expectScoresAndLanes(page, detail);
    await page.getByTestId("agent-lanes").last().scrollIntoViewIfNeeded();
    await screenshot(page, "chat-run-scores", false);
    // The same after a reload, from the stored run rather than its live events.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: TITLE }).waitFor();
    await expectScoresAndLanes(page, detail);

    // The re-run picker starts on the step's current model.
    const coder = page
      .getByTestId("run")
      .last()
      .locator('[data-testid="agent-lane"][data-kind="agent"]')
      .first();
    await coder.getByRole("button", { name: "Re-run with another model…" }).click();
    const model = page.getByTestId("rerun-form").getByLabel("Model");
    const stepRole = await coder.getAttribute("data-role");
    const step = detail.runs[0]?.steps.find((s) => s.kind === "agent" && s.role === stepRole);
    expect(await model.inputValue()).toBe(step?.model);
    expect(await model.locator("option:checked").textContent()).toContain("(current model)");

    // The export says what the screen says: Completed, and the coordinator's name.
    const response = await fetch(`${baseURL()}/api/sessions/${sessionId}/export?format=markdown`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expect(markdown).toContain("| Coordinator | CoReason |");
    expect(markdown).toContain("| Status | Completed |");
    expect(markdown).toMatch(/^### Run 1 · Completed · Automatic team · \d+\.\d\d credits/m);
    expect(markdown).not.toContain("| coreason |");
    expect(markdown).not.toMatch(/ · completed( ·|$)/m);
    expectNoErrors();
    await close();
  });
});

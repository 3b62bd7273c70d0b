import type { TSubscriptionTier, TUserResponse } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { api, uploadReadyText } from "./support/api";
import { launchBrowser, openPage } from "./support/browser";

/**
 * A new user's first hour, real answers without a cloud key (decisions 056, 065): the built-in
 * simulator answers the question it was asked. A question of fact is answered with the
 * sentence of the attached document that says it, quoted and cited, not planned; a lending API
 * is written in books, members and loans, not as a to-do list; CoChat's answer to a question
 * it has no document for says so in a sentence. Every answer stays labelled Simulated.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1440, height: 1000 } };
const RUN_TIMEOUT = 90_000;

/** The rules a library publishes: the DVD's fine is on its own line, after the books'. */
const LIBRARY_RULES = [
  "Riverside Public Library: lending rules",
  "",
  "Membership is free for everyone who lives, works or studies in the borough. A member card is issued at the front desk on showing proof of address.",
  "",
  "Books are lent for three weeks and can be renewed twice, online or at the desk, unless another member has reserved them. A late book costs 0.20 per day.",
  "",
  "Films and music",
  "",
  "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00. DVDs cannot be renewed.",
  "",
  "Music CDs follow the rules for books. Damaged or lost items are charged at their replacement cost.",
].join("\n");
const DVD_SENTENCE = "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.";

async function grantTier(user: TestUser, tier: TSubscriptionTier): Promise<void> {
  const { user: profile } = await api<TUserResponse>("GET", "/api/users/profile", user.token);
  await api("PUT", `/api/admin/users/${profile.id}/tier`, await adminToken(), { tier });
}

/** A session made in the New session dialog, with the named documents attached. */
async function newSession(page: Page, title: string, documents: string[] = []): Promise<void> {
  await page.goto("/chat?new=1");
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Title", { exact: true }).fill(title);
  for (const name of documents) {
    await dialog
      .getByTestId("document-picker")
      .getByRole("checkbox", { name: new RegExp(name.replace(".", "\\.")) })
      .check();
  }
  await dialog.getByRole("button", { name: "Create session" }).click();
  await page.waitForURL(/\/chat\/[\w-]+$/);
}

async function runTask(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled()).toBe(true);
  const runs = await page.getByTestId("run").count();
  await box.fill(text);
  await box.press("Enter");
  // The new run, not the last one before it (already completed when a second task is sent).
  await expect.poll(() => page.getByTestId("run").count(), { timeout: RUN_TIMEOUT }).toBe(runs + 1);
  const run = page.getByTestId("run").nth(runs);
  await expect
    .poll(() => run.getAttribute("data-status"), { timeout: RUN_TIMEOUT, interval: 100 })
    .toBe("completed");
  return run;
}

describe("the simulator answers the question it was asked", () => {
  it("quotes and cites the document's sentence that answers a question of fact", async () => {
    const user = await createUser({ firstName: "Ada", lastName: "Reader" });
    await uploadReadyText(user, "library-rules.txt", LIBRARY_RULES);
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await newSession(page, "Library fines", ["library-rules.txt"]);
    const run = await runTask(page, "What is the fine for a DVD returned late at the library?");

    // The plan answers the question; it does not plan a project around it.
    expect(await run.getByTestId("plan-step").allTextContents()).toEqual([
      expect.stringContaining(
        "Answer the fine for a DVD returned late at the library, quoting and citing the passage that says it.",
      ),
      expect.stringContaining(
        "Review the drafts for the fine for a DVD returned late at the library",
      ),
    ]);
    const answer = run.getByTestId("final-answer");
    const text = (await answer.textContent()) ?? "";
    // The citation [1] is drawn as a numbered link: its text is "1".
    expect(text).toContain(
      "SummaryThe fine for a DVD returned late at the library: answered from library-rules.txt, quoting the passage that says it 1. The Critic checked it against the passage: 9/10, nothing to fix.",
    );
    // The sentence that answers, whole, without the heading above it in the document.
    expect(text).toContain(`Answerlibrary-rules.txt answers it: “${DVD_SENTENCE}” 1`);
    expect(text).not.toContain("Clarify the goal");
    expect(text).not.toContain("Books are lent");
    expect(text).not.toContain("A late book costs");
    // The quote is cited, and the citation opens the passage it came from.
    const citation = answer.getByTestId("citation").first();
    expect(await citation.getAttribute("title")).toMatch(/^library-rules\.txt/);
    expect(await citation.getAttribute("href")).toMatch(/^\/documents\?view=[\w-]+&passage=/);
    // Nothing to fix in a quoted, cited answer: the Critic's ring says 9.
    expect(await run.getByTestId("critic-score").textContent()).toBe("9");
    expect(await answer.getByTestId("simulated-badge").count()).toBe(1);
    for (const lane of await run.getByTestId("agent-lane").all()) {
      expect(await lane.getByTestId("simulated-badge").count()).toBe(1);
    }
    expectNoErrors();
    await close();
  });

  it("writes a library lending API and its fine rules in books, members and loans, not as a to-do list", async () => {
    const user = await createUser({ firstName: "Lou", lastName: "Lender" });
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await newSession(page, "Lending API");
    const run = await runTask(page, "Build a REST API for library lending");
    const coder = run.locator('[data-testid="agent-lane"][data-role="coder"]').first();
    const code = (await coder.getByTestId("lane-output").textContent()) ?? "";
    expect(code).toContain("/loans (bookId, memberId, dueOn)");
    expect(code).toContain("interface Loan {");
    // The old simulator answered any API task with a to-do list's resource and its done flag.
    expect(code).not.toMatch(/\bto-?dos?\b/i);
    expect(code).not.toMatch(/\bdone\b/i);
    expect(await coder.getByTestId("simulated-badge").count()).toBe(1);

    // Rules over the library's records take its loans, not a list of ids and values.
    const rules = await runTask(
      page,
      "Design the overdue-fine rules for a small library's lending service: a daily fine, a cap per loan, and a data model for books, members and loans.",
    );
    const rulesCode =
      (await rules
        .locator('[data-testid="agent-lane"][data-role="coder"]')
        .first()
        .getByTestId("lane-output")
        .textContent()) ?? "";
    expect(rulesCode).toContain("export interface Loan {");
    expect(rulesCode).toContain("(loans: readonly Loan[]): Map<number, number> {");
    expect(rulesCode).not.toMatch(/\bvalue: number\b/);
    expectNoErrors();
    await close();
  });

  it("has CoChat say in a sentence that it cannot answer a question of fact without a document", async () => {
    const user = await createUser({ firstName: "Cora", lastName: "Chat" });
    await grantTier(user, "pro");
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/cochat");
    const box = page.getByLabel("Message CoChat");
    await box.fill("Explain in two sentences what an overdue fine cap is");
    await box.press("Enter");
    const answer = page.getByTestId("cochat-answer").last();
    await expect
      .poll(() => answer.getAttribute("data-status"), { timeout: 30_000 })
      .toBe("complete");
    const body = (await answer.getByTestId("cochat-answer-body").textContent()) ?? "";
    expect(body).toContain(
      "I can't answer that from facts: this is Cohort's built-in simulator, not a real model, so it knows nothing about an overdue fine cap of its own.",
    );
    expect(body).not.toContain("A practical way into");
    expect(body).not.toContain("in two sentences");
    expect(await answer.getByTestId("simulated-badge").count()).toBe(1);
    expectNoErrors();
    await close();
  });
});

import type { TSubscriptionTier, TUserResponse } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx, makePdf } from "../test-support/document-fixtures";
import { adminToken, createUser, signInContext, type TestUser } from "./support/accounts";
import { api, uploadReadyText } from "./support/api";
import { baseURL, launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast, horizontalOverflow } from "./support/ui";

/**
 * Documents and memory in runs (decisions 037, 038) in a real browser against the built server, on the built-in
 * simulator: a Pro+ user uploads a PDF and a DOCX on the Documents page, searches them,
 * attaches both to a new session, runs a task whose answer cites a passage, follows the
 * citation to the viewer and back, approves a memory the coordinator proposed, and sees
 * the next run use it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1360, height: 960 } };
/** Extraction runs in a worker; on a busy machine a document can take a while to be read. */
const READ_TIMEOUT = 45_000;
const RUN_TIMEOUT = 90_000;

/**
 * The task's words all appear in both documents' key passages: keyword search (no embedding
 * model here) finds a passage that has every word of the request.
 */
const TASK = "Plan the breakwater repairs against the shipworms";
const PDF_PASSAGE =
  "Repair plan: the divers found the breakwater undermined by shipworms near the eastern pier, " +
  "and the repairs should start before the autumn storms.";
const DOCX_PASSAGE =
  "The plan budgets the breakwater repairs at 40,000 euros, shipworms included, within the limit the board approved.";
const FILLER =
  "The committee went through the quarterly figures line by line, noting where the " +
  "estimates had held and where they had drifted from the spring forecast. ";

function makeSurveyPdf(): Promise<Buffer> {
  return makePdf([FILLER.repeat(10), [FILLER.repeat(4), PDF_PASSAGE, FILLER.repeat(4)]], {
    title: "Harbour survey 2026",
    size: "A4",
    margin: 56,
  });
}

function makeBudgetDocx(): Promise<Buffer> {
  return makeDocx(
    [
      { heading: "Repairs", paragraphs: [DOCX_PASSAGE] },
      { heading: "Dredging", paragraphs: ["The dredging of the inner basin waits for next year."] },
    ],
    "Harbour budget",
  );
}

/** Memory is a Pro+ feature: the admin grants the plan, as a purchase would. */
async function grantTier(user: TestUser, tier: TSubscriptionTier): Promise<void> {
  const { user: profile } = await api<TUserResponse>("GET", "/api/users/profile", user.token);
  await api("PUT", `/api/admin/users/${profile.id}/tier`, await adminToken(), { tier });
}

function documentRow(page: Page, name: string): Locator {
  return page.getByTestId("document-row").filter({
    has: page.getByTestId("document-name").getByText(name, { exact: true }),
  });
}

async function send(page: Page, text: string): Promise<Locator> {
  const box = page.getByRole("textbox", { name: "Message" });
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

describe("documents and memory in runs", () => {
  it("cites an attached document's passage, opens it from the answer, and remembers what the user approves", async () => {
    const user = await createUser({ firstName: "Mary", lastName: "Anning" });
    await grantTier(user, "pro+");
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    const [pdf, docx] = await Promise.all([makeSurveyPdf(), makeBudgetDocx()]);

    // Upload both through the Documents page and wait until they are read.
    await page.goto("/documents");
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    await page.getByTestId("documents-file-input").setInputFiles([
      { name: "harbour-survey.pdf", mimeType: "application/pdf", buffer: pdf },
      {
        name: "harbour-budget.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        buffer: docx,
      },
    ]);
    for (const name of ["harbour-survey.pdf", "harbour-budget.docx"]) {
      await documentRow(page, name)
        .locator('[data-testid="document-status"][data-status="ready"]')
        .waitFor({ timeout: READ_TIMEOUT });
    }

    // Search finds the passage the task will need.
    const search = page.getByTestId("documents-search");
    await search.getByLabel("Search your documents").fill("shipworms");
    await search.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => search.getByTestId("search-result").count()).toBe(2);

    // A new session with both documents attached.
    await page.goto("/chat");
    await page.getByRole("button", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByLabel("Title", { exact: true }).fill("Harbour repairs");
    const picker = dialog.getByTestId("document-picker");
    await picker.getByRole("checkbox", { name: /harbour-survey\.pdf/ }).check();
    await picker.getByRole("checkbox", { name: /harbour-budget\.docx/ }).check();
    await screenshot(page, "documents-in-runs-new-session", false);
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    const sessionUrl = page.url();
    const attached = page.getByTestId("session-documents");
    await expect.poll(() => attached.getAttribute("aria-label")).toBe("Documents (2)");

    // The run: the plan names the documents, the lanes show their passages, the answer cites.
    const run = await send(page, TASK);
    await completed(run);
    const stepDocuments = await run.getByTestId("step-document").allTextContents();
    expect(stepDocuments).toContain("harbour-survey.pdf");
    expect(stepDocuments).toContain("harbour-budget.docx");
    const lanePassages = run.getByTestId("lane-passages").first();
    await lanePassages.locator("summary").click();
    const passage = lanePassages.getByTestId("lane-passage").first();
    expect(await passage.textContent()).toMatch(/harbour-(survey\.pdf|budget\.docx)/);
    expect(await lanePassages.locator('[data-cited="true"]').count()).toBeGreaterThan(0);
    await lanePassages.scrollIntoViewIfNeeded();
    await screenshot(page, "documents-in-runs-lane", false);

    const answer = run.getByTestId("final-answer");
    const citation = answer.getByTestId("citation").first();
    await citation.waitFor();
    const title = (await citation.getAttribute("title")) ?? "";
    expect(title).toMatch(/^harbour-(survey\.pdf, page 2|budget\.docx)/);
    const href = (await citation.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/documents\?view=[\w-]+&passage=[\w-]+$/);
    await citation.scrollIntoViewIfNeeded();
    await screenshot(page, "documents-in-runs-answer", false);

    // The citation opens the viewer at the passage, which is marked.
    await citation.click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
    const viewer = page.getByTestId("document-viewer");
    const focused = viewer.locator('[data-testid="document-chunk"][aria-current="location"]');
    await focused.waitFor();
    expect(await focused.textContent()).toContain("shipworms");
    await screenshot(page, "documents-in-runs-viewer", false);

    // Back to the session: approve a memory the coordinator proposed.
    await page.goBack();
    await page.waitForURL(sessionUrl);
    const proposals = page.getByTestId("run-memory-proposals").last();
    await proposals.waitFor({ timeout: RUN_TIMEOUT });
    const proposal = proposals
      .locator('[data-testid="memory-proposal"][data-status="proposed"]')
      .filter({ hasText: "breakwater" })
      .first();
    const memoryText = ((await proposal.locator("p").textContent()) ?? "")
      .replace(/^(fact|preference)/i, "")
      .trim();
    expect(memoryText).toContain("breakwater");
    await proposal.getByRole("button", { name: /^Approve/ }).click();
    await expectToast(page, "Memory saved");
    await proposals
      .locator('[data-testid="memory-proposal"][data-status="approved"]')
      .first()
      .waitFor();

    // The next run on the same subject uses it, and says so.
    const next = await send(page, "Estimate the cost of the breakwater repairs");
    const used = next.getByTestId("used-memories");
    await used.waitFor({ timeout: RUN_TIMEOUT });
    expect(await used.getByTestId("used-memory").allTextContents()).toContain(memoryText);
    await completed(next);
    await used.scrollIntoViewIfNeeded();
    await screenshot(page, "documents-in-runs-memory", false);

    // After a reload, the stored runs keep their passages, citations and memories.
    await page.reload();
    const reloaded = page.getByTestId("run").last();
    await reloaded.getByTestId("used-memories").waitFor();
    expect(await reloaded.getByTestId("used-memory").allTextContents()).toContain(memoryText);
    const first = page.getByTestId("run").first();
    await first.locator("summary").first().click();
    expect(await first.getByTestId("lane-passages").count()).toBeGreaterThan(0);
    expect(await first.getByTestId("final-answer").getByTestId("citation").count()).toBeGreaterThan(
      0,
    );

    // On a phone the header keeps its Documents control and nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    await attached.waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "documents-in-runs-mobile", false);
    await page.setViewportSize(desktop.viewport);

    // The header's control shows and changes what is attached.
    await attached.click();
    const attach = page.getByRole("dialog", { name: "Session documents" });
    const survey = attach.getByRole("checkbox", { name: /harbour-survey\.pdf/ });
    expect(await survey.isChecked()).toBe(true);
    await screenshot(page, "documents-in-runs-attach", false);
    await survey.uncheck();
    await attach.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "1 document attached");
    await expect.poll(() => attached.getAttribute("aria-label")).toBe("Documents (1)");

    expectNoErrors();
    await close();
  });

  it("opens the new session even when its documents cannot be attached, and says why", async () => {
    const user = await createUser({ firstName: "Mary", lastName: "Somerville" });
    const id = await uploadReadyText(
      user,
      "tides.txt",
      "The spring tides peak in March.",
      READ_TIMEOUT,
    );
    const { page, expectNoErrors, close } = await openPage(browser, desktop);
    await signInContext(page.context(), user.token);
    await page.goto("/chat");
    await page.getByRole("button", { name: "New session" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New session" });
    await dialog.getByLabel("Title", { exact: true }).fill("Tides");
    await dialog.getByRole("checkbox", { name: /tides\.txt/ }).check();
    // The document goes away while the dialog is open (deleted in another tab).
    const deleted = await fetch(`${baseURL()}/api/documents/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(deleted.ok).toBe(true);
    await dialog.getByRole("button", { name: "Create session" }).click();
    await page.waitForURL(/\/chat\/[\w-]+$/);
    await expectToast(page, "The session was created, but its documents were not attached");
    await page
      .locator("ol > li")
      .getByText("One of these documents does not exist.", { exact: false })
      .waitFor();
    expect(await page.getByTestId("session-documents").getAttribute("aria-label")).toBe(
      "Documents (0)",
    );
    expectNoErrors([/Failed to load resource: the server responded with a status of 404/]);
    await close();
  });
});

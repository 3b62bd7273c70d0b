import { CSRF_HEADER, type TCsrfTokenResponse, type TSessionResponse } from "@cohort/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx, makePdf } from "../test-support/document-fixtures";
import { launchBrowser, openPage, screenshot } from "./support/browser";
import { expectToast, horizontalOverflow, signUpThroughTheUi } from "./support/ui";

/**
 * The Documents screen (decision 036) in a real browser against the built server: a new user
 * uploads a PDF (file picker) and a DOCX (drag and drop), sees them read with their page
 * counts, sees a refused file's reason, searches, opens a highlighted passage in the viewer
 * (also after a reload), renames, downloads and deletes.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const desktop = { viewport: { width: 1280, height: 900 } };
const phone = { width: 390, height: 844 };
/** Extraction runs in a worker; on a busy machine a document can take a while to be read. */
const READ_TIMEOUT = 45_000;

const FILLER =
  "The committee met in the long room and went through the quarterly figures line by line, " +
  "noting where the estimates had held and where they had drifted from the plan agreed in spring. ";

/** A PDF of three pages; the passage the test looks for is on the last one. */
function makeSurveyPdf(): Promise<Buffer> {
  return makePdf(
    [
      FILLER.repeat(12),
      FILLER.repeat(12),
      [
        FILLER.repeat(6),
        "The divers found the old breakwater undermined by a colony of shipworms near the " +
          "eastern pier; repairs should start before the autumn storms.",
        FILLER.repeat(4),
      ],
    ],
    { title: "Harbour survey 2026", size: "A4", margin: 56 },
  );
}

function makeNotesDocx(): Promise<Buffer> {
  return makeDocx(
    [
      {
        heading: "Tide gauges",
        paragraphs: ["The tide gauges on the western quay were recalibrated on Tuesday."],
      },
      {
        heading: "Budget",
        paragraphs: ["The dredging budget stays within the limit the board approved."],
      },
    ],
    "Field notes",
  );
}

/** A 1×1 PNG: an image, whatever its name says, which Cohort refuses by its content. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A PDF by its signature whose body is not one: read, and marked failed with the reason. */
const BROKEN_PDF = Buffer.from(`%PDF-1.7\n${"This is not a PDF body.\n".repeat(40)}%%EOF\n`);

/** Drops `file` on the page as a person dragging it from the desktop would. */
async function dropFile(target: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const dataTransfer = await target.page().evaluateHandle(
    ({ name, mimeType, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: mimeType }));
      return transfer;
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") },
  );
  await target.dispatchEvent("dragenter", { dataTransfer });
  await target.dispatchEvent("dragover", { dataTransfer });
  await target.dispatchEvent("drop", { dataTransfer });
}

function documentRow(page: Page, name: string): Locator {
  return page.getByTestId("document-row").filter({
    has: page.getByTestId("document-name").getByText(name, { exact: true }),
  });
}

/** Whether the element's box lies inside the window. */
function inViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight && box.bottom > 0;
  });
}

describe("documents", () => {
  it("uploads, reads, searches, shows, renames, downloads and deletes documents", async () => {
    const { page, expectNoErrors, close } = await openPage(browser, {
      ...desktop,
      acceptDownloads: true,
    });
    await signUpThroughTheUi(page, { prefix: "documents", firstName: "Mary", lastName: "Anning" });
    const [pdf, docx] = await Promise.all([makeSurveyPdf(), makeNotesDocx()]);

    await page.goto("/documents");
    await page.getByRole("heading", { level: 1, name: "Documents" }).waitFor();
    // The personal workspace is the user's own: no "team's" (decision 065).
    expect(await page.getByTestId("documents-subtitle").textContent()).toBe(
      "Your source material: searched during runs, cited by passage.",
    );
    // The empty state says what is accepted, with the server's own limits.
    const empty = page.getByTestId("documents-empty");
    await empty.waitFor();
    expect(await empty.textContent()).toContain(
      "PDF, Word, text, Markdown, CSV, JSON and source code files, up to 20 MB each; your plan stores 50 MB in all.",
    );
    expect(await page.getByTestId("documents-storage").textContent()).toBe(
      "0 bytes of 50 MB used (0%)",
    );

    // A slow line, so each file's progress can be seen while it is sent.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 2_048,
    });
    // Three files at once through the picker: the PDF, an image named like a text file, and
    // a PDF that cannot be read.
    await page.getByTestId("documents-file-input").setInputFiles([
      { name: "harbour-survey.pdf", mimeType: "application/pdf", buffer: pdf },
      { name: "notes.txt", mimeType: "text/plain", buffer: PNG },
      { name: "broken.pdf", mimeType: "application/pdf", buffer: BROKEN_PDF },
    ]);
    // One more by drag and drop onto the page.
    await dropFile(page.getByTestId("documents-dropzone"), {
      name: "field-notes.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: docx,
    });

    const uploads = page.getByRole("region", { name: "Uploads" });
    const docxProgress = uploads.getByRole("progressbar", { name: "Uploading field-notes.docx" });
    await expect
      .poll(async () => Number(await docxProgress.getAttribute("aria-valuenow")), {
        timeout: 20_000,
      })
      .toBeGreaterThan(0);
    await screenshot(page, "documents-uploading", false);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const refused = uploads.getByTestId("upload-row").filter({ hasText: "notes.txt" });
    await refused.getByTestId("upload-refusal").waitFor();
    expect(await refused.getByTestId("upload-refusal").textContent()).toBe(
      "Not uploaded: This file is PNG (image/png), which is not supported. Cohort reads PDF, Word (DOCX), text, Markdown, CSV, JSON and source code files.",
    );

    const pdfRow = documentRow(page, "harbour-survey.pdf");
    const docxRow = documentRow(page, "field-notes.docx");
    for (const row of [pdfRow, docxRow]) {
      await row.locator('[data-testid="document-status"][data-status="ready"]').waitFor({
        timeout: READ_TIMEOUT,
      });
    }
    expect(await pdfRow.getByTestId("document-facts").textContent()).toMatch(/^PDF.*3 pages/);
    expect(await docxRow.getByTestId("document-facts").textContent()).toMatch(/^Word/);
    // The unreadable one is stored but marked failed, with the reason, here and in the viewer.
    const brokenRow = documentRow(page, "broken.pdf");
    await brokenRow.locator('[data-testid="document-status"][data-status="failed"]').waitFor({
      timeout: READ_TIMEOUT,
    });
    const reason = (await brokenRow.getByTestId("document-failure").textContent()) ?? "";
    expect(reason).toBe("The file is not a readable PDF.");
    expect(await uploads.locator('[data-phase="uploaded"]').count()).toBe(3);
    expect(await uploads.getByText("Uploaded and read: ready to search.").count()).toBe(2);
    expect(await uploads.getByText(reason, { exact: true }).count()).toBe(1);
    expect(await page.getByTestId("documents-storage").textContent()).not.toMatch(/^0 bytes/);
    await screenshot(page, "documents");
    await brokenRow.getByTestId("document-name").click();
    await page.waitForURL(/\/documents\?view=[\w-]+$/);
    expect(await page.getByTestId("document-failure").textContent()).toBe(reason);
    expect(await page.getByTestId("document-chunk").count()).toBe(0);
    await page.getByRole("link", { name: "All documents" }).click();
    await pdfRow.waitFor();

    // Search: the passage comes back with the match marked, and the mode is stated.
    const search = page.getByTestId("documents-search");
    expect(await search.getByTestId("search-mode").textContent()).toBe("Keyword search");
    await search.getByLabel("Search your documents").fill("shipworms");
    await search.getByRole("button", { name: "Search" }).click();
    const result = search.getByTestId("search-result").first();
    await result.waitFor();
    expect(await result.textContent()).toContain("harbour-survey.pdf");
    expect(await result.textContent()).toContain("Page 3");
    expect(await result.locator("mark").first().textContent()).toMatch(/^shipworms$/i);
    await search.scrollIntoViewIfNeeded();
    await screenshot(page, "documents-search", false);

    // The result opens the viewer with that passage in view and marked.
    await result.click();
    await page.waitForURL(/\/documents\?view=[\w-]+&passage=[\w-]+$/);
    const viewer = page.getByTestId("document-viewer");
    await viewer.getByRole("heading", { level: 1, name: "harbour-survey.pdf" }).waitFor();
    const focused = viewer.locator('[data-testid="document-chunk"][aria-current="location"]');
    await focused.waitFor();
    expect(await focused.textContent()).toContain("colony of shipworms");
    expect(await focused.textContent()).toContain("Page 3");
    await expect.poll(() => inViewport(focused)).toBe(true);
    expect(await viewer.getByTestId("document-chunk").count()).toBeGreaterThan(1);
    // Beside the text, the PDF's pages drawn with pdf.js, the passage highlighted on page 3.
    const pages = viewer.getByTestId("pdf-pages").getByTestId("pdf-page");
    await expect.poll(() => pages.count(), { timeout: READ_TIMEOUT }).toBe(3);
    const cited = viewer.locator('[data-testid="pdf-page"][data-cited="true"]');
    expect(await cited.getAttribute("data-page")).toBe("3");
    await expect
      .poll(() => cited.getAttribute("data-rendered"), { timeout: READ_TIMEOUT })
      .toBe("true");
    const highlights = cited.getByTestId("pdf-highlight");
    expect(await highlights.count()).toBeGreaterThan(0);
    // The marks sit on the page, over drawn (non-blank) pixels of its canvas.
    const inked = await cited.evaluate((figure) => {
      const canvas = figure.querySelector("canvas");
      const marks = Array.from(
        figure.querySelectorAll<HTMLElement>('[data-testid="pdf-highlight"]'),
      );
      const context = canvas?.getContext("2d");
      if (!canvas || !context) return 0;
      const scale = canvas.width / canvas.clientWidth;
      return marks.filter((mark) => {
        const { data } = context.getImageData(
          mark.offsetLeft * scale,
          mark.offsetTop * scale,
          Math.max(1, mark.offsetWidth * scale),
          Math.max(1, mark.offsetHeight * scale),
        );
        for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) return true;
        return false;
      }).length;
    });
    expect(inked).toBe(await highlights.count());
    await expect.poll(() => inViewport(cited)).toBe(true);
    await screenshot(page, "documents-viewer", false);

    // A deep link survives a reload.
    const viewerUrl = page.url();
    await page.reload();
    await focused.waitFor();
    expect(page.url()).toBe(viewerUrl);
    await expect.poll(() => inViewport(focused)).toBe(true);

    // On a phone: the deep link still brings the passage into view, and nothing overflows.
    await page.setViewportSize(phone);
    await page.reload();
    await focused.waitFor();
    await expect.poll(() => inViewport(focused)).toBe(true);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "documents-viewer-mobile", false);
    await viewer.getByRole("link", { name: "All documents" }).click();
    await page.waitForURL(/\/documents$/);
    await pdfRow.waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, "documents-mobile");
    await page.setViewportSize(desktop.viewport);

    // A session that uses the PDF (attached as the session's attach control does): the list
    // names it and links to it.
    const csrf = (await (await page.request.get("/api/csrf-token")).json()) as TCsrfTokenResponse;
    const headers = { [CSRF_HEADER]: csrf.csrfToken };
    const created = await page.request.post("/api/sessions", {
      headers,
      data: { title: "Harbour repairs" },
    });
    const { session } = (await created.json()) as TSessionResponse;
    const pdfId = await pdfRow.getAttribute("data-document-id");
    const attached = await page.request.put(`/api/sessions/${session.id}/documents`, {
      headers,
      data: { document_ids: [pdfId] },
    });
    expect(attached.status()).toBe(200);
    await page.reload();
    const sessionLink = pdfRow.getByRole("link", { name: "Harbour repairs" });
    await sessionLink.waitFor();
    expect(await sessionLink.getAttribute("href")).toBe(`/chat/${session.id}`);
    expect(await docxRow.textContent()).toContain("Not used in a session yet");

    // Rename inline.
    await docxRow.getByRole("button", { name: "Rename field-notes.docx" }).click();
    const nameInput = page.getByLabel("New name for field-notes.docx");
    await nameInput.fill("Quay field notes.docx");
    await nameInput.press("Enter");
    await expectToast(page, "Document renamed");
    const renamed = documentRow(page, "Quay field notes.docx");
    await renamed.waitFor();

    // Download: the file comes as an attachment named after the document.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      renamed.getByRole("link", { name: "Download Quay field notes.docx" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Quay field notes.docx");
    const saved = await download.path();
    expect(saved).toBeTruthy();

    // Delete, after a confirmation.
    await renamed.getByRole("button", { name: "Delete Quay field notes.docx" }).click();
    await renamed.getByTestId("confirm-delete").getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Deleted Quay field notes.docx");
    await expect.poll(() => renamed.count()).toBe(0);
    expect(await page.getByTestId("document-row").count()).toBe(2);

    // The refused upload answered 4xx, which the browser logs as a failed resource.
    expectNoErrors([/Failed to load resource: the server responded with a status of 4\d\d/]);
    await close();
  });
});

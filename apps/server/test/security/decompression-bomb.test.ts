import type { TDocument } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { makeInflatingPdf, upload, waitProcessed } from "../support/documents";
import { expectResponsive, probeLiveness } from "../support/liveness";

/**
 * Advisory class: decompression bombs. A small upload that expands in the reader: a 1 MB PDF
 * whose content stream inflates to 1 GB grew the server to 2.55 GB and was marked ready, as
 * pdfjs inflates into buffers that the extraction worker's heap limit does not count. A PDF's
 * streams are now measured before pdfjs reads them, and the text read is capped (decision
 * 050); the largest document these limits allow is read in its worker while the server
 * keeps answering its liveness probe (over real HTTP on a listening server;
 * support/liveness.ts).
 *
 * Limits made small to keep the test quick: streams may inflate to 8 MB in total, and
 * DOCUMENT_MAX_MB = 1 caps the text at 1,048,576 characters.
 */

const ONE_GB = 1024 ** 3;
/** A text operator and four path operators: 11 characters of text per 116 bytes of stream. */
const MIXED = `BT /F1 12 Tf 72 700 Td (Lorem ipsum) Tj ET\n${"0 0 m 100 100 l S\n".repeat(4)}`;

let t: TestApp;
let base: string;
let user: SignedUp;

beforeAll(async () => {
  t = await createTestApp({ DOCUMENT_MAX_MB: "1", DOCUMENT_MAX_UNZIPPED_MB: "8" });
  base = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("localhost", "127.0.0.1");
  user = await signUp(t.app);
});

afterAll(async () => {
  await t?.close();
});

async function uploaded(name: string, bytes: Buffer): Promise<string> {
  const response = await upload(user.client, name, bytes);
  expect(response.statusCode).toBe(201);
  return response.json().document.id as string;
}

describe("PDF decompression bombs", () => {
  it("a 1 MB PDF whose content stream inflates to 1 GB is failed with the reason, and the server does not grow", async () => {
    const bomb = await makeInflatingPdf({ text: "Hidden words", filler: "\0", repeat: ONE_GB });
    expect(bomb.length).toBeLessThan(1024 * 1024 + 64 * 1024);
    const before = process.memoryUsage.rss();
    const document = await waitProcessed(user.client, await uploaded("bomb.pdf", bomb));
    const grown = process.memoryUsage.rss() - before;
    expect(document.status).toBe("failed");
    expect(document.failure_reason).toBe(
      "The PDF's compressed contents expand to more than 8 MB, so it was not read.",
    );
    expect(document.chunk_count).toBe(0);
    // pdfjs held the inflated stream (1 GB and its growing copy) in the server's process.
    expect(grown).toBeLessThan(256 * 1024 * 1024);
  }, 120_000);

  it("a PDF with more text than the cap is failed with the reason", async () => {
    const wordy = await makeInflatingPdf({
      text: "Start",
      filler: "BT /F1 12 Tf 72 700 Td (Lorem ipsum dolor sit amet) Tj ET\n",
      repeat: 50_000,
    });
    const document = await waitProcessed(user.client, await uploaded("wordy.pdf", wordy));
    expect(document.status).toBe("failed");
    expect(document.failure_reason).toBe(
      "The document has more than 1,048,576 characters of text; at most that many are read.",
    );
  }, 120_000);

  it("the largest allowed PDF is read while health/live keeps answering", async () => {
    // Just under both limits: ~7.9 MB of content stream, ~750,000 characters of text.
    const largest = await makeInflatingPdf({
      text: "First line",
      filler: MIXED,
      repeat: Math.floor((7.9 * 1024 * 1024) / MIXED.length),
    });
    const id = await uploaded("largest.pdf", largest);
    let document: TDocument | null = null;
    const probes = await probeLiveness(
      base,
      () => document !== null,
      async () => {
        const state = (await user.client.get(`/api/documents/${id}`)).json().document as TDocument;
        if (state.status !== "processing") document = state;
      },
    );
    expect((document as TDocument | null)?.failure_reason).toBeNull();
    expect((document as TDocument | null)?.status).toBe("ready");
    expectResponsive(probes);
  }, 180_000);
});

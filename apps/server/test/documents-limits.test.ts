import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { makePdf, upload, uploadProcessed } from "./support/documents";

/** Limits from the configuration, made tiny: per-file size, extraction time and page count. */
let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  t = await createTestApp({
    DOCUMENT_MAX_MB: "0.01",
    DOCUMENT_EXTRACT_TIMEOUT_MS: "1",
  });
  user = await signUp(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe("configured limits", () => {
  it("a file over DOCUMENT_MAX_MB is refused while it streams, and nothing is kept", async () => {
    const response = await upload(user.client, "big.txt", "x".repeat(20_000));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({
      code: "document_too_large",
      message: "This file is larger than the 0 MB limit per document.",
    });
    const list = (await user.client.get("/api/documents")).json();
    expect(list.documents).toEqual([]);
    expect(list.usage.used_bytes).toBe(0);
  });

  it("an extraction over DOCUMENT_EXTRACT_TIMEOUT_MS is stopped and the document failed", async () => {
    const doc = await uploadProcessed(user.client, "slow.pdf", await makePdf(["Some text"]));
    expect(doc.status).toBe("failed");
    expect(doc.failure_reason).toBe(
      "Reading the document took longer than 1 ms, so it was stopped.",
    );
    expect(doc.chunk_count).toBe(0);
  });
});

import { SESSION_IMPORT_MAX_BYTES, type TDocument } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { upload } from "../support/documents";

/**
 * Advisory class: misleading display. What the app shows must be what it is: a file name
 * cannot reorder itself on screen with bidirectional controls, and an error names the limit
 * that was really applied (decision 051).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: "0" });
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
});

const BIDI = [
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u200F",
];

describe("document names", () => {
  it("lose every bidirectional control, on upload and on rename", async () => {
    const { client } = await signUp(t.app);
    const uploaded = await upload(client, "invoice\u202Efdp.txt", "Plain text.");
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const document = uploaded.json().document as TDocument;
    expect(document.name).toBe("invoicefdp.txt");

    const renamed = await client.request("PATCH", `/api/documents/${document.id}`, {
      name: `report${BIDI.join("")}.pdf`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().document.name).toBe("report.pdf");
  });
});

describe("the 413 answer", () => {
  it("names the route's own limit: 5 MB for an import, 1 MB elsewhere", async () => {
    const { client } = await signUp(t.app);
    const big = JSON.stringify({ format: "x", padding: "y".repeat(SESSION_IMPORT_MAX_BYTES) });
    const tooLarge = await client.request("POST", "/api/sessions/import", big, {
      headers: { "content-type": "application/json" },
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toEqual({
      code: "payload_too_large",
      message: "The request body is larger than 5 MB.",
    });
    const elsewhere = await client.post("/api/sessions", { title: "z".repeat(1_100_000) });
    expect(elsewhere.json().error.message).toBe("The request body is larger than 1 MB.");
  });
});

import type { TSessionExport } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../../../test-support/export-fixtures";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { pdfText } from "./support/pdf";

/**
 * Artifacts in exports (decision 063): they are fenced blocks of the answers, so every
 * export carries their source as written — Markdown and JSON exactly, the PDF as a code block.
 */
let t: TestApp;
let owner: SignedUp;
let sessionId: string;

const PAGE =
  '<!doctype html>\n<html lang="en">\n<head><title>Loan desk</title></head>\n<body><h1>Loan desk</h1></body>\n</html>';
const DIAGRAM = "flowchart LR\n  Borrow --> Return";
const ANSWER = `The page:\n\n\`\`\`html\n${PAGE}\n\`\`\`\n\nThe flow:\n\n\`\`\`mermaid\n${DIAGRAM}\n\`\`\`\n`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app);
  const imported = await owner.client.post(
    "/api/sessions/import",
    handmadeExport({ title: "Loan desk", answer: ANSWER }),
  );
  expect(imported.statusCode).toBe(201);
  sessionId = imported.json().session_id;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const exportOf = (format: string) =>
  owner.client.get(`/api/sessions/${sessionId}/export?format=${format}`);

describe("artifacts in exports", () => {
  it("Markdown carries each artifact's fenced source exactly", async () => {
    const response = await exportOf("markdown");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`\`\`\`html\n${PAGE}\n\`\`\``);
    expect(response.body).toContain(`\`\`\`mermaid\n${DIAGRAM}\n\`\`\``);
  });

  it("JSON carries them in the answer and the step that wrote it", async () => {
    const response = await exportOf("json");
    expect(response.statusCode).toBe(200);
    const body = JSON.parse(response.body) as TSessionExport;
    expect(body.messages.find((m) => m.role === "assistant")?.content).toBe(ANSWER);
    expect(body.runs[0]?.steps.some((step) => step.output === ANSWER)).toBe(true);
  });

  it("the PDF shows their source as code", async () => {
    const response = await exportOf("pdf");
    expect(response.statusCode).toBe(200);
    const flat = (await pdfText(response.rawPayload)).text.replace(/\s+/g, "");
    expect(flat).toContain("<head><title>Loandesk</title></head>");
    expect(flat).toContain("Borrow-->Return");
  });
});

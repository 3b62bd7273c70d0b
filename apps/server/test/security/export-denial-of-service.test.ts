import { randomUUID } from "node:crypto";
import { EXPORT_ERROR_CODES, type TSessionExport } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../../../../test-support/export-fixtures";
import { type SignedUp, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { expectResponsive, probeLiveness } from "../support/liveness";
import { pdfText } from "../support/pdf";

/**
 * Advisory class: denial of service through export. Any viewer of a session can ask for its
 * PDF; drawn on the server's thread, one session with a 20,000-character word stopped every
 * request for 10 s, and a 4 MB imported session took minutes and gigabytes while SIGTERM
 * waited. PDFs are now drawn in worker threads with time and memory limits, a bounded number
 * at once (decision 050). These tests probe liveness over real HTTP
 * on a listening server (inject would share the loop just the same, but the probes must
 * travel as a load balancer's do; support/liveness.ts) while the largest exports run, and
 * the server must keep answering throughout.
 */

const WORD = `${"w".repeat(19_997)}END`;
/** One answer per run, at the message limit: 100 runs of question and answer ≈ 4 MB. */
const RUNS = 100;

let t: TestApp;
let tight: TestApp;
let base: string;
let owner: SignedUp;
let wordSession: string;
let bigSession: string;

/** A session export of `runs` runs, each answering with `answer` (the import's 5 MB cap). */
function exportOfRuns(runs: number, answer: string): TSessionExport {
  const one = handmadeExport({ title: "Large", answer });
  const messages: TSessionExport["messages"] = [];
  const allRuns: TSessionExport["runs"] = [];
  for (let i = 0; i < runs; i++) {
    const [question, reply] = one.messages as [
      TSessionExport["messages"][number],
      TSessionExport["messages"][number],
    ];
    const run = one.runs[0] as TSessionExport["runs"][number];
    const ids = { question: randomUUID(), reply: randomUUID(), run: randomUUID() };
    messages.push(
      { ...question, id: ids.question, run_id: ids.run, content: `Question ${i + 1}` },
      { ...reply, id: ids.reply, run_id: ids.run },
    );
    allRuns.push({
      ...run,
      id: ids.run,
      message_id: ids.question,
      result_message_id: ids.reply,
      steps: run.steps.map((step) => ({ ...step, id: randomUUID() })),
    });
  }
  return { ...one, messages, runs: allRuns };
}

async function importSession(who: SignedUp, data: TSessionExport) {
  const response = await who.client.post("/api/sessions/import", data);
  expect(response.statusCode).toBe(201);
  return response.json().session_id as string;
}

function cookieOf(who: SignedUp): string {
  return [...who.client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** The export over HTTP, as a browser downloads it. */
async function exportPdf(url: string, who: SignedUp, sessionId: string) {
  const response = await fetch(`${url}/api/sessions/${sessionId}/export?format=pdf`, {
    headers: { cookie: cookieOf(who) },
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The liveness probes while `work` runs, and its result. */
async function probeWhile<T>(url: string, work: Promise<T>) {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const probes = await probeLiveness(url, () => done);
  return { result: await settled, probes };
}

beforeAll(async () => {
  t = await createTestApp();
  base = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("localhost", "127.0.0.1");
  owner = await signUp(t.app);
  wordSession = await importSession(owner, handmadeExport({ question: WORD, answer: WORD }));
  bigSession = await importSession(owner, exportOfRuns(RUNS, WORD));
  // Renders that can never finish in time: the limit's answer, without waiting for one.
  tight = await createTestApp({ PDF_EXPORT_TIMEOUT_MS: "1" });
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), tight?.close()]);
});

describe("PDF export does not stop the server", () => {
  it("a 20,000-character word: the export keeps every character and health/live answers throughout", async () => {
    const { result, probes } = await probeWhile(base, exportPdf(base, owner, wordSession));
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get("content-type")).toBe("application/pdf");
    expectResponsive(probes);
    const { text } = await pdfText(result.bytes);
    // The word is broken into lines, never shortened: question and answer both whole (once
    // the page numbers between its pages are taken out).
    const flat = text.replace(/Page \d+ of \d+/g, "").replace(/\s+/g, "");
    expect(flat.split(WORD)).toHaveLength(3);
  }, 60_000);

  it("a 4 MB imported session: health/live answers throughout; the PDF stops at the page cap with a note", async () => {
    const { result, probes } = await probeWhile(base, exportPdf(base, owner, bigSession));
    expect(result.response.status).toBe(200);
    expectResponsive(probes);
    const { pages, text } = await pdfText(result.bytes);
    expect(pages).toBeGreaterThanOrEqual(300);
    expect(pages).toBeLessThanOrEqual(302);
    expect(text.replace(/\s+/g, " ")).toContain(
      "Truncated: this PDF shows the session's first 300 pages at most. Download the session as Markdown or JSON for all of it.",
    );
  }, 180_000);

  it("with every renderer busy, another export is answered 503 with Retry-After at once", async () => {
    // Two renderers (the default) and three large exports at once: whichever comes third finds
    // both renderers drawing a 300-page PDF and is refused at once (which one depends on the
    // order they reach the pool, so the test does not guess it).
    const attempts = await Promise.all(
      [0, 1, 2].map(async () => {
        const response = await fetch(`${base}/api/sessions/${bigSession}/export?format=pdf`, {
          headers: { cookie: cookieOf(owner) },
        });
        const body: unknown =
          response.status === 503 ? await response.json() : await response.arrayBuffer();
        return { response, body };
      }),
    );
    const statuses = attempts.map((a) => a.response.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
    const refused = attempts.find((a) => a.response.status === 503);
    expect(refused?.response.headers.get("retry-after")).toBe("5");
    expect(refused?.body).toEqual({
      error: {
        code: EXPORT_ERROR_CODES.pdfBusy,
        message:
          "Every PDF renderer is busy. Try again in a few seconds, or download the session as Markdown.",
      },
    });
    // Both renderers free again: the next export is drawn.
    expect((await exportPdf(base, owner, wordSession)).response.status).toBe(200);
  }, 240_000);

  it("a render over its time limit is stopped and answered 422; its renderer is free again", async () => {
    const tightOwner = await signUp(tight.app);
    const id = await importSession(tightOwner, handmadeExport({ answer: WORD }));
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await tightOwner.client.get(`/api/sessions/${id}/export?format=pdf`);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        error: {
          code: EXPORT_ERROR_CODES.pdfTooLarge,
          message:
            "The PDF needed more than 1 ms to draw, so it was stopped. Download the session as Markdown or JSON instead.",
        },
      });
    }
    // Markdown is not drawn by a renderer: still there for the same session.
    const markdown = await tightOwner.client.get(`/api/sessions/${id}/export?format=markdown`);
    expect(markdown.statusCode).toBe(200);
  }, 60_000);
});

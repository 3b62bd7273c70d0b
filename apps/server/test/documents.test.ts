import { existsSync } from "node:fs";
import path from "node:path";
import {
  DOCUMENT_QUOTA_BYTES,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  type TDocumentChunk,
  type TDocumentsResponse,
  type TSearchPassage,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentSearch } from "../src/modules/documents/document-search";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import {
  makeDocx,
  makePdf,
  makeZipBombDocx,
  multipartBody,
  upload,
  uploadProcessed,
  waitProcessed,
} from "./support/documents";
import { createSession } from "./support/runs";

let t: TestApp;
let a: SignedUp;
let b: SignedUp;

beforeAll(async () => {
  t = await createTestApp();
  a = await signUp(t.app);
  b = await signUp(t.app);
});

afterAll(async () => {
  await t?.close();
});

async function search(user: SignedUp, q: string, extra = "") {
  const response = await user.client.get(
    `/api/documents/search?q=${encodeURIComponent(q)}${extra}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { mode: string; passages: TSearchPassage[] };
}

async function chunksOf(user: SignedUp, id: string): Promise<TDocumentChunk[]> {
  return (await user.client.get(`/api/documents/${id}/chunks`)).json().chunks;
}

const filler = (word: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} about ${word} and other matters.`).join(" ");

describe("each type is indexed and searchable with its page or section", () => {
  it("a PDF: text per page, pages counted, passages name their page", async () => {
    const pdf = await makePdf([
      "The aardvark digs burrows at night.",
      "Zebras graze on the savanna in herds.",
      "Final page about quokkas.",
    ]);
    const doc = await uploadProcessed(a.client, "animals.pdf", pdf);
    expect(doc).toMatchObject({
      kind: "pdf",
      media_type: "application/pdf",
      status: "ready",
      pages: 3,
    });
    const { passages, mode } = await search(a, "zebra herd");
    expect(mode).toBe("keyword");
    expect(passages[0]).toMatchObject({
      document_id: doc.id,
      document_name: "animals.pdf",
      page: 2,
    });
    expect(passages[0]?.snippet).toContain(`${HIGHLIGHT_START}Zebras${HIGHLIGHT_END}`);
    const chunks = await chunksOf(a, doc.id);
    expect(chunks.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(chunks[0]?.text).toContain("aardvark");
  });

  it("a DOCX: headings become sections", async () => {
    const docx = await makeDocx([
      { heading: "Revenue outlook", paragraphs: ["Revenue grows with the flamingo line."] },
      { heading: "Hiring plan", paragraphs: ["We hire three narwhal specialists."] },
    ]);
    const doc = await uploadProcessed(a.client, "plan.docx", docx);
    expect(doc).toMatchObject({ kind: "docx", status: "ready", pages: null });
    const { passages } = await search(a, "narwhal");
    expect(passages[0]).toMatchObject({ document_id: doc.id, section: "Hiring plan", page: null });
    expect(passages[0]?.text).toContain("three narwhal specialists");
  });

  it("a CSV: rows are chunked with their header and named by row numbers", async () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) => `${i + 1},item-${i + 1},${i === 41 ? "pangolin" : "widget"}`,
    );
    const doc = await uploadProcessed(
      a.client,
      "stock.csv",
      ["id,name,animal", ...rows].join("\n"),
    );
    expect(doc).toMatchObject({ kind: "csv", media_type: "text/csv", status: "ready" });
    const { passages } = await search(a, "pangolin");
    expect(passages).toHaveLength(1);
    expect(passages[0]?.text.startsWith("id,name,animal\n")).toBe(true);
    expect(passages[0]?.text).toContain("42,item-42,pangolin");
    const [, first, last] = /^Rows (\d+)–(\d+)$/.exec(passages[0]?.section ?? "") ?? [];
    expect(Number(first)).toBeLessThanOrEqual(42);
    expect(Number(last)).toBeGreaterThanOrEqual(42);
  });

  it("Markdown (sections by heading), JSON and source code", async () => {
    const md = await uploadProcessed(
      a.client,
      "notes.md",
      `# Intro\n\n${filler("intro", 5)}\n\n## Axolotl care\n\nKeep the axolotl water cool.\n`,
    );
    expect(md.kind).toBe("markdown");
    const found = await search(a, "axolotl");
    expect(found.passages[0]).toMatchObject({ document_id: md.id, section: "Axolotl care" });

    const json = await uploadProcessed(a.client, "data.json", '{"species":"okapi","count":3}');
    expect(json).toMatchObject({ kind: "json", media_type: "application/json" });
    expect((await search(a, "okapi")).passages[0]?.document_id).toBe(json.id);

    const code = await uploadProcessed(a.client, "tapir.ts", "export const tapirCount = 7;\n");
    expect(code.kind).toBe("code");
    const text = await uploadProcessed(a.client, "README", "plain words about a capybara");
    expect(text.kind).toBe("text");
  });

  it("long text is cut into chunks of at most 1,200 characters, in order", async () => {
    const doc = await uploadProcessed(a.client, "long.txt", filler("gecko", 200));
    const chunks = await chunksOf(a, doc.id);
    expect(doc.chunk_count).toBe(chunks.length);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.text.length).toBeGreaterThanOrEqual(800);
      expect(chunk.text.length).toBeLessThanOrEqual(1200);
    }
  });

  it("search can be limited to some documents, and a passage opens by its id", async () => {
    const one = await uploadProcessed(a.client, "one.txt", "the wombat lives here");
    const two = await uploadProcessed(a.client, "two.txt", "another wombat lives there");
    const all = await search(a, "wombat");
    expect(all.passages.map((p) => p.document_id).sort()).toEqual([one.id, two.id].sort());
    const limited = await search(a, "wombat", `&document_ids=${two.id},not-a-uuid`);
    expect(limited.passages.map((p) => p.document_id)).toEqual([two.id]);
    const passage = await a.client.get(`/api/documents/passages/${limited.passages[0]?.chunk_id}`);
    expect(passage.statusCode).toBe(200);
    expect(passage.json().passage).toMatchObject({
      document_id: two.id,
      text: "another wombat lives there",
    });
  });
});

describe("documentSearch, for runs and MCP", () => {
  it("finds passages for a task's words (any may match) and describes only own documents", async () => {
    const doc = await uploadProcessed(
      a.client,
      "pricing.md",
      "# Pricing\n\nThe marmot tier costs nine dollars.",
    );
    const search = documentSearch(t.app);
    const passages = await search.search({
      workspaceId: a.user.id,
      query: "Write a summary of what the marmot tier of our unicorn product costs",
      limit: 3,
    });
    expect(passages[0]).toMatchObject({
      document_id: doc.id,
      document_name: "pricing.md",
      section: "Pricing",
      page: null,
      text: "# Pricing\n\nThe marmot tier costs nine dollars.",
    });
    expect(Object.keys(passages[0] ?? {}).sort()).toEqual([
      "chunk_id",
      "document_id",
      "document_name",
      "page",
      "score",
      "section",
      "text",
    ]);
    expect(await search.search({ workspaceId: b.user.id, query: "marmot", limit: 3 })).toEqual([]);
    expect(
      await search.search({ workspaceId: a.user.id, query: "marmot", documentIds: [], limit: 3 }),
    ).toEqual([]);
    expect(await search.describe(a.user.id, [doc.id, "nope"])).toEqual([
      { id: doc.id, name: "pricing.md", status: "ready", pages: null },
    ]);
    expect(await search.describe(b.user.id, [doc.id])).toEqual([]);
  });

  it("the search route falls back to any word when no chunk has them all", async () => {
    const all = await search(a, "marmot unicorn");
    expect(all.passages[0]?.document_name).toBe("pricing.md");
    expect(all.passages[0]?.snippet).toContain(`${HIGHLIGHT_START}marmot${HIGHLIGHT_END}`);
  });
});

describe("refused files say why", () => {
  const png = Buffer.concat([
    Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
    Buffer.alloc(64, 1),
  ]);
  const exe = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200, 0x90), Buffer.from("PE\0\0")]);

  it("a PNG or an EXE renamed .txt is refused by its content", async () => {
    for (const [bytes, label] of [
      [png, "PNG"],
      [exe, "EXE"],
    ] as const) {
      const response = await upload(a.client, "harmless.txt", bytes);
      expect(response.statusCode, label).toBe(415);
      expect(response.json().error.code).toBe("document_unsupported_type");
      expect(response.json().error.message).toContain(label);
      expect(response.json().error.message).toContain("Cohort reads PDF, Word (DOCX)");
    }
  });

  it("binary data of no known type, and text that is not UTF-8, are refused", async () => {
    const latin1 = Buffer.from("caf\xe9 cr\xe8me", "latin1");
    for (const bytes of [Buffer.from([1, 2, 3, 0, 0, 7, 255, 254]), latin1]) {
      const response = await upload(a.client, "notes.txt", bytes);
      expect(response.statusCode).toBe(415);
      expect(response.json().error.message).toMatch(/binary \(or text that is not UTF-8\)/);
    }
  });

  it("an empty file and a request without a file are refused", async () => {
    const empty = await upload(a.client, "empty.txt", Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({
      code: "document_empty",
      message: "This file is empty.",
    });
    const none = await a.client.post("/api/documents", {});
    expect(none.statusCode).toBe(415);
    const boundary = "----cohort-field";
    const withField = await a.client.request(
      "POST",
      "/api/documents",
      `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--${boundary}--\r\n`,
      { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } },
    );
    expect(withField.statusCode).toBe(400);
    expect(withField.json().error.message).toBe('No file was sent. Send it in the field "file".');
    // A field other than the workspace's beside the file refuses the upload.
    const file = multipartBody("a.txt", Buffer.from("text"));
    const fileBoundary = file.contentType.split("boundary=")[1] as string;
    const other = Buffer.from(
      `--${fileBoundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n`,
    );
    const withOther = await a.client.request(
      "POST",
      "/api/documents",
      Buffer.concat([other, file.payload]),
      { headers: { "content-type": file.contentType } },
    );
    expect(withOther.statusCode).toBe(400);
    expect(withOther.json().error.message).toBe(
      'Send exactly one file per request, in the field "file", with no other fields than "workspace_id".',
    );
  });

  it("nothing of a refused file is kept or counted", async () => {
    const before = (await b.client.get("/api/documents")).json() as TDocumentsResponse;
    await upload(b.client, "x.txt", png);
    const after = (await b.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(after.documents).toEqual(before.documents);
    expect(after.usage.used_bytes).toBe(before.usage.used_bytes);
  });

  it("uploads need the CSRF token and a sign-in", async () => {
    const { TestClient } = await import("./support/client");
    const anonymous = await upload(new TestClient(t.app), "a.txt", "hello");
    expect(anonymous.statusCode).toBe(401);
    a.client.csrfToken = "wrong";
    const forged = await upload(a.client, "a.txt", "hello");
    a.client.csrfToken = null;
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.message).toContain("CSRF");
  });
});

describe("HTML is kept as text and never served to render", () => {
  it("an HTML file is source code, downloaded as an attachment octet-stream", async () => {
    const html = "<html><body><script>alert(document.cookie)</script>Ibex</body></html>";
    const doc = await uploadProcessed(a.client, "päge.html", html);
    expect(doc).toMatchObject({ kind: "code", status: "ready", name: "päge.html" });
    const renamed = await a.client.request("PATCH", `/api/documents/${doc.id}`, {
      name: 'päge "evil".html',
    });
    expect(renamed.statusCode).toBe(200);
    const download = await a.client.get(`/api/documents/${doc.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/octet-stream");
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["content-disposition"]).toBe(
      `attachment; filename="p_ge _evil_.html"; filename*=UTF-8''p%C3%A4ge%20%22evil%22.html`,
    );
    expect(download.body).toBe(html);
  });

  it("a PDF downloads byte for byte", async () => {
    const pdf = await makePdf(["Download me"]);
    const doc = await uploadProcessed(a.client, "dl.pdf", pdf);
    const download = await a.client.get(`/api/documents/${doc.id}/download`);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(download.headers["content-type"]).toBe("application/octet-stream");
  });
});

describe("unreadable documents fail with the reason, never half-indexed", () => {
  it("a zip bomb posing as a DOCX is refused before it is unpacked", async () => {
    const bomb = makeZipBombDocx(300);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const response = await upload(a.client, "bomb.docx", bomb);
    expect(response.statusCode).toBe(201);
    expect(response.json().document).toMatchObject({ kind: "docx", status: "processing" });
    const doc = await waitProcessed(a.client, response.json().document.id);
    expect(doc.status).toBe("failed");
    expect(doc.failure_reason).toContain("more than 200 MB when unpacked");
    expect(doc.chunk_count).toBe(0);
    expect(await chunksOf(a, doc.id)).toEqual([]);
  });

  it("a file that claims to be a PDF but is not readable fails", async () => {
    const doc = await uploadProcessed(a.client, "broken.pdf", Buffer.from("%PDF-1.7\n garbage"));
    expect(doc.status).toBe("failed");
    expect(doc.failure_reason).toBe("The file is not a readable PDF.");
    expect((await search(a, "garbage")).passages).toEqual([]);
  });
});

describe("quota", () => {
  it("parallel uploads cannot together pass the quota, and deleting gives space back", async () => {
    const user = await signUp(t.app);
    const quota = DOCUMENT_QUOTA_BYTES.free;
    // The user is 1,500 bytes short of the quota: of three 1,000-byte files only one fits.
    await t.db.query("INSERT INTO document_usage (user_id, used_bytes) VALUES ($1, $2)", [
      user.user.id,
      quota - 1500,
    ]);
    const file = "q".repeat(1000);
    const responses = await Promise.all(
      [1, 2, 3].map((n) => upload(user.client, `q${n}.txt`, file)),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 413, 413]);
    const refused = responses.find((r) => r.statusCode === 413);
    expect(refused?.json().error.code).toBe("document_quota_exceeded");
    expect(refused?.json().error.message).toContain("does not fit in your document storage (50 MB");
    const list = (await user.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(list.usage).toMatchObject({ used_bytes: quota - 500, quota_bytes: quota });
    expect(list.documents).toHaveLength(1);

    const kept = responses.find((r) => r.statusCode === 201)?.json().document.id as string;
    await waitProcessed(user.client, kept);
    expect((await user.client.delete(`/api/documents/${kept}`)).statusCode).toBe(200);
    const again = (await user.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(again.usage.used_bytes).toBe(quota - 1500);
    expect((await upload(user.client, "q4.txt", file)).statusCode).toBe(201);
  });
});

describe("ownership and deletion", () => {
  it("another user gets 404 for every id of A's, and finds nothing of A's", async () => {
    const doc = await uploadProcessed(a.client, "secret.txt", "the secret walrus plan");
    const chunkId = (await chunksOf(a, doc.id))[0]?.id as string;
    const requests = [
      b.client.get(`/api/documents/${doc.id}`),
      b.client.get(`/api/documents/${doc.id}/chunks`),
      b.client.get(`/api/documents/${doc.id}/download`),
      b.client.get(`/api/documents/passages/${chunkId}`),
      b.client.request("PATCH", `/api/documents/${doc.id}`, { name: "mine now" }),
      b.client.delete(`/api/documents/${doc.id}`),
    ];
    for (const response of await Promise.all(requests)) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.body).not.toContain("walrus");
    }
    expect((await search(b, "walrus")).passages).toEqual([]);
    expect((await search(b, "walrus", `&document_ids=${doc.id}`)).passages).toEqual([]);
    const list = (await b.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(list.documents.map((d) => d.id)).not.toContain(doc.id);
    expect((await a.client.get(`/api/documents/${doc.id}`)).json().document.name).toBe(
      "secret.txt",
    );
  });

  it("rename, then delete removes the file, the chunks and the passages", async () => {
    const doc = await uploadProcessed(a.client, "old.txt", "the ocelot paragraph");
    const renamed = await a.client.request("PATCH", `/api/documents/${doc.id}`, {
      name: "New name.txt",
    });
    expect(renamed.json().document.name).toBe("New name.txt");
    const chunkId = (await chunksOf(a, doc.id))[0]?.id as string;
    const file = path.join(t.app.config.dataDir, "documents", doc.id);
    expect(existsSync(file)).toBe(true);
    const usedBefore = ((await a.client.get("/api/documents")).json() as TDocumentsResponse).usage
      .used_bytes;

    expect((await a.client.delete(`/api/documents/${doc.id}`)).json()).toEqual({ deleted: true });
    expect(existsSync(file)).toBe(false);
    expect((await a.client.get(`/api/documents/${doc.id}`)).statusCode).toBe(404);
    expect((await a.client.get(`/api/documents/passages/${chunkId}`)).statusCode).toBe(404);
    expect((await search(a, "ocelot")).passages).toEqual([]);
    const after = (await a.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(after.usage.used_bytes).toBe(usedBefore - doc.size_bytes);
    const { rows } = await t.db.query("SELECT 1 FROM document_chunks WHERE document_id = $1", [
      doc.id,
    ]);
    expect(rows).toEqual([]);
  });

  it("the list shows the sessions a document is attached to; deleting detaches it", async () => {
    const doc = await uploadProcessed(a.client, "attached.txt", "the lynx report");
    const session = await createSession(a.client, { title: "Lynx research" });
    // Attachments are made by the sessions' documents routes (helper R1); here the row itself.
    await t.db.query("INSERT INTO session_documents (session_id, document_id) VALUES ($1, $2)", [
      session.id,
      doc.id,
    ]);
    const listed = (await a.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(listed.documents.find((d) => d.id === doc.id)?.sessions).toEqual([
      { id: session.id, title: "Lynx research" },
    ]);
    expect((await a.client.delete(`/api/documents/${doc.id}`)).statusCode).toBe(200);
    const { rows } = await t.db.query("SELECT 1 FROM session_documents WHERE document_id = $1", [
      doc.id,
    ]);
    expect(rows).toEqual([]);
  });

  it("the list says where files are kept, the limits and the search mode", async () => {
    const list = (await a.client.get("/api/documents")).json() as TDocumentsResponse;
    expect(list).toMatchObject({ store: "local", search_mode: "keyword", embedding_model: null });
    expect(list.usage.max_file_bytes).toBe(20 * 1024 * 1024);
    expect(list.documents[0]?.sessions).toEqual([]);
  });
});

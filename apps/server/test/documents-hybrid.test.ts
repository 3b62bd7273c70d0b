import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ZEmbeddingModelsResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { configErrorOf, createTestApp, type TestApp, testConfig } from "./support/app";
import { uploadProcessed } from "./support/documents";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { balanceOf, setCredits } from "./support/runs-credits";

/** With an embedding model configured: vectors at indexing, hybrid ranking at search. */
let fake: FakeProviderServer;
let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  fake = await FakeProviderServer.start();
  t = await createTestApp({
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrls.openaiCompatible,
    OPENAI_COMPATIBLE_MODELS: "llama3.1",
    EMBEDDING_MODEL: "openai-compatible:fake-embed",
  });
  user = await signUp(t.app);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

function embeddingRequests() {
  return fake.requests.filter((r) => r.path.endsWith("/embeddings"));
}

describe("hybrid search", () => {
  it("embeds the chunks and finds a misspelt query that full text alone misses", async () => {
    const zebra = await uploadProcessed(user.client, "zebra.txt", "Zebras graze on the savanna.");
    await uploadProcessed(user.client, "aardvark.txt", "Aardvarks dig burrows at night.");
    await uploadProcessed(user.client, "quokka.txt", "Quokkas smile on Rottnest Island.");
    expect(embeddingRequests()).toHaveLength(3);
    expect(embeddingRequests()[0]?.body).toMatchObject({
      model: "fake-embed",
      input: ["Zebras graze on the savanna."],
    });

    const list = (await user.client.get("/api/documents")).json();
    expect(list.search_mode).toBe("hybrid");
    // The legacy `openai-compatible:<name>` setting maps to the catalogue's local model.
    expect(list.embedding_model).toBe("local:fake-embed");
    expect(zebra.embedding_model).toBe("local:fake-embed");

    // "zebraz" has no lexeme in common with any chunk: only the vectors can find it.
    const misspelt = (await user.client.get("/api/documents/search?q=zebraz")).json();
    expect(misspelt.mode).toBe("hybrid");
    expect(misspelt.passages[0]).toMatchObject({ document_id: zebra.id, page: null });

    // A word that does match ranks its chunk first by both rankings.
    const exact = (await user.client.get("/api/documents/search?q=burrows")).json();
    expect(exact.passages[0]?.document_name).toBe("aardvark.txt");
    expect(exact.passages[0]?.snippet).toContain("\uE000burrows\uE001");
  });

  it("a document whose embeddings fail is marked failed, not half-indexed", async () => {
    fake.next({ status: 400, errorMessage: "input too long" });
    const doc = await uploadProcessed(user.client, "refused.txt", "This text is refused.");
    expect(doc.status).toBe("failed");
    expect(doc.failure_reason).toBe(
      "The embedding model could not index the document. Try uploading it again later.",
    );
    expect(doc.chunk_count).toBe(0);
  });
});

describe("embedding models in the catalogue", () => {
  it("lists them apart from chat models, usable or not, with the one documents use", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/models/embeddings" })).statusCode).toBe(
      401,
    );
    const response = await user.client.get("/api/models/embeddings");
    expect(response.statusCode).toBe(200);
    const body = ZEmbeddingModelsResponse.parse(response.json());
    expect(body.documents_model).toBe("local:fake-embed");
    expect(body.models).toEqual([
      {
        id: "text-embedding-3-small",
        name: "OpenAI text-embedding-3-small",
        provider: "openai",
        dimensions: 1536,
        price: { input_per_1k: 0.002 },
        usable: false,
      },
      {
        id: "text-embedding-3-large",
        name: "OpenAI text-embedding-3-large",
        provider: "openai",
        dimensions: 3072,
        price: { input_per_1k: 0.013 },
        usable: false,
      },
      {
        id: "local:fake-embed",
        name: "fake-embed (local)",
        provider: "openai-compatible",
        dimensions: null,
        price: { input_per_1k: 0 },
        usable: true,
      },
    ]);
    // Not chat models: the chat catalogue does not offer them.
    const chat = (await user.client.get("/api/ai/models")).json();
    expect(chat.models.map((m: { id: string }) => m.id)).not.toContain("text-embedding-3-small");
    expect(chat.models.map((m: { id: string }) => m.id)).not.toContain("local:fake-embed");
  });

  it("a free local model charges nothing but records the usage", async () => {
    const before = await balanceOf(t.app, user.user.id);
    const doc = await uploadProcessed(user.client, "free.txt", "Okapis live in the Ituri forest.");
    expect(doc.embedding_model).toBe("local:fake-embed");
    expect(await balanceOf(t.app, user.user.id)).toEqual(before);
    const { rows } = await t.db.query<{ credits: string; input_tokens: number; model: string }>(
      "SELECT credits, input_tokens, model FROM usage_events WHERE reference = $1",
      [`document-embeddings:${doc.id}`],
    );
    expect(rows).toEqual([
      { credits: expect.anything(), input_tokens: 1, model: "local:fake-embed" },
    ]);
    expect(Number(rows[0]?.credits)).toBe(0);
  });

  it("stops start-up for an unknown or unusable EMBEDDING_MODEL, naming it", () => {
    expect(configErrorOf({ EMBEDDING_MODEL: "no-such-embedder" })).toContain(
      'EMBEDDING_MODEL: "no-such-embedder" is not an embedding model of the catalogue; choose one of: text-embedding-3-small, text-embedding-3-large',
    );
    expect(configErrorOf({ EMBEDDING_MODEL: "openai:text-embedding-ada-002" })).toContain(
      'EMBEDDING_MODEL: "openai:text-embedding-ada-002" is not an embedding model',
    );
    expect(configErrorOf({ EMBEDDING_MODEL: "text-embedding-3-small" })).toContain(
      "EMBEDDING_MODEL: text-embedding-3-small needs OPENAI_API_KEY",
    );
    expect(
      configErrorOf({
        OPENAI_COMPATIBLE_EMBEDDING_MODELS: "nomic",
        EMBEDDING_MODEL: "local:nomic",
      }),
    ).toContain("EMBEDDING_MODEL: local:nomic needs OPENAI_COMPATIBLE_BASE_URL");
    // The legacy form of an OpenAI model maps to its catalogue entry.
    expect(
      testConfig({ OPENAI_API_KEY: "sk-test", EMBEDDING_MODEL: "openai:text-embedding-3-large" })
        .documents.embeddingModel,
    ).toBe("text-embedding-3-large");
  });
});

describe("charging embeddings to the document's owner", () => {
  let priced: TestApp;
  let owner: SignedUp;

  beforeAll(async () => {
    // A price of 1,000 credits per 1,000 tokens: the fake reports one token per chunk, so
    // each one-chunk document costs exactly 1 credit.
    const dir = mkdtempSync(path.join(tmpdir(), "cohort-embeddings-"));
    const file = path.join(dir, "models.json");
    writeFileSync(
      file,
      JSON.stringify({
        embeddingModels: [{ id: "text-embedding-3-small", price: { input_per_1k: 1000 } }],
      }),
    );
    priced = await createTestApp({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: fake.baseUrls.openai,
      MODELS_CONFIG_FILE: file,
      EMBEDDING_MODEL: "text-embedding-3-small",
    });
    owner = await signUp(priced.app);
  });
  afterAll(() => priced?.close());

  async function usageLedger() {
    const ledger = (await owner.client.get("/api/billing/ledger")).json();
    return ledger.entries.filter((e: { reason: string }) => e.reason === "usage");
  }

  it("debits the exact catalogue price, naming the document, and records the usage", async () => {
    await setCredits(priced.app, owner.user.id, 10);
    const doc = await uploadProcessed(
      owner.client,
      "gnu.txt",
      "Gnus migrate across the Serengeti.",
    );
    expect(doc).toMatchObject({ status: "ready", embedding_model: "text-embedding-3-small" });
    expect(embeddingRequests().at(-1)?.body).toMatchObject({ model: "text-embedding-3-small" });
    expect(await balanceOf(priced.app, owner.user.id)).toMatchObject({ balance: 9, available: 9 });
    const [entry] = await usageLedger();
    expect(entry).toMatchObject({ delta: -1, reason: "usage" });
    expect(entry.description).toContain('Embeddings for document "gnu.txt"');
    const { rows } = await priced.db.query<{ input_tokens: number }>(
      "SELECT input_tokens FROM usage_events WHERE reference = $1",
      [`document-embeddings:${doc.id}`],
    );
    expect(rows).toEqual([{ input_tokens: 1 }]);
  });

  it("indexes keyword-only, charging nothing, when the credits do not cover it", async () => {
    // Not enough for the embeddings: they are made, then not stored and not charged.
    await setCredits(priced.app, owner.user.id, 0.5);
    const calls = embeddingRequests().length;
    const short = await uploadProcessed(owner.client, "ibis.txt", "Ibises wade in the marsh.");
    expect(short).toMatchObject({ status: "ready", chunk_count: 1, embedding_model: null });
    expect(embeddingRequests()).toHaveLength(calls + 1);
    expect((await balanceOf(priced.app, owner.user.id)).balance).toBe(0.5);

    // No credits at all: the model is not even called.
    await setCredits(priced.app, owner.user.id, 0);
    const none = await uploadProcessed(owner.client, "kudu.txt", "Kudus browse at dusk.");
    expect(none).toMatchObject({ status: "ready", embedding_model: null });
    expect(embeddingRequests()).toHaveLength(calls + 1);
    expect(await usageLedger()).toHaveLength(1);

    // Still found, by keyword.
    const found = (await owner.client.get("/api/documents/search?q=ibises")).json();
    // (Fusion may rank the one embedded document level with it, so not necessarily first.)
    const ibis = found.passages.find((p: { document_id: string }) => p.document_id === short.id);
    expect(ibis?.snippet).toContain("\uE000Ibises\uE001");
  });
});

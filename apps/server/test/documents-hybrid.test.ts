import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { uploadProcessed } from "./support/documents";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";

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
    expect(list.embedding_model).toMatch(/embed/);

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

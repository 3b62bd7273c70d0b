import {
  ceilToHundredths,
  creditsOf,
  type Hundredths,
  type TDocumentKind,
} from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { DocumentsConfig } from "../../config";
import type { Db, Queryable } from "../../db/client";
import { applyLedgerEntry } from "../credits/apply-ledger-entry";
import type { CreditChange, CreditsDeps } from "../credits/credits-deps";
import { getBalance } from "../credits/get-balance";
import { insertUsage } from "../credits/record-usage";
import type { TextBlock } from "./chunk-text";
import type { DocumentStore } from "./document-store";
import type { Embedder, Embedding } from "./embed-texts";
import { ExtractionAborted, extractDocument } from "./extract-document";

export interface DocumentProcessor {
  /** Extracts and indexes the document in the background (status processing → ready/failed). */
  enqueue(documentId: string): void;
  /** Takes up documents left `processing` by a stopped instance. */
  resumeStale(): Promise<void>;
  /** Stops running extractions (they stay `processing`, to be resumed) and waits for them. */
  stop(): Promise<void>;
}

export interface ProcessorDeps {
  db: Db;
  store: DocumentStore;
  config: DocumentsConfig;
  log: FastifyBaseLogger;
  embedder: Embedder | null;
  /** Tells the owner's sockets about an embedding charge, after its commit. */
  publish: CreditsDeps["publish"];
}

/** Extractions at once per instance: each takes a core while it parses. */
const CONCURRENCY = 2;

export function createDocumentProcessor(deps: ProcessorDeps): DocumentProcessor {
  const waiting: string[] = [];
  const running = new Set<Promise<void>>();
  const stopping = new AbortController();

  const pump = () => {
    while (running.size < CONCURRENCY && waiting.length > 0 && !stopping.signal.aborted) {
      const id = waiting.shift() as string;
      const job = processDocument(deps, id, stopping.signal)
        .catch((error: unknown) => {
          if (!(error instanceof ExtractionAborted)) {
            deps.log.error({ err: error, documentId: id }, "document processing failed");
          }
        })
        .finally(() => {
          running.delete(job);
          pump();
        });
      running.add(job);
    }
  };

  return {
    enqueue(id) {
      waiting.push(id);
      pump();
    },
    async resumeStale() {
      // Older than the time limit: no extraction can still be working on it.
      const { rows } = await deps.db.query<{ id: string }>(
        `UPDATE documents SET updated_at = clock_timestamp()
          WHERE status = 'processing'
            AND updated_at < clock_timestamp() - make_interval(secs => $1::double precision)
          RETURNING id`,
        [(deps.config.extractTimeoutMs * 2) / 1000 + 60],
      );
      for (const row of rows) this.enqueue(row.id);
    },
    async stop() {
      stopping.abort();
      waiting.length = 0;
      await Promise.allSettled([...running]);
    },
  };
}

async function processDocument(deps: ProcessorDeps, id: string, signal: AbortSignal) {
  const { rows } = await deps.db.query<{
    kind: TDocumentKind;
    storage_key: string;
    user_id: string;
    name: string;
  }>(
    "SELECT kind, storage_key, user_id, name FROM documents WHERE id = $1 AND status = 'processing'",
    [id],
  );
  const doc = rows[0];
  if (!doc) return;
  let bytes: Buffer;
  try {
    bytes = await deps.store.read(doc.storage_key);
  } catch (error) {
    // Deleted meanwhile (its file went first), or the store lost it: never left processing.
    deps.log.warn({ err: error, documentId: id }, "document file could not be read");
    await markFailed(deps.db, id, "The stored file could not be read. Upload it again.");
    return;
  }
  const result = await extractDocument(doc.kind, bytes, {
    maxPages: deps.config.maxPages,
    maxUnzippedBytes: deps.config.maxUnzippedBytes,
    // No more text than the largest text file an upload may carry (decision 050).
    maxTextChars: deps.config.maxFileBytes,
    timeoutMs: deps.config.extractTimeoutMs,
    memoryMb: deps.config.workerMemoryMb,
    signal,
  });
  if (!result.ok) {
    await markFailed(deps.db, id, result.reason);
    return;
  }
  let embedding: Embedding | null = null;
  // An owner with no credits left is not sent to a priced model: keyword-only at once.
  if (deps.embedder && (await mayEmbed(deps.db, doc.user_id, deps.embedder))) {
    try {
      embedding = await deps.embedder.embed(result.chunks.map((chunk) => chunk.text));
    } catch (error) {
      deps.log.warn({ err: error, documentId: id }, "document embeddings failed");
      await markFailed(
        deps.db,
        id,
        "The embedding model could not index the document. Try uploading it again later.",
      );
      return;
    }
  }
  const change = await storeChunks(deps.db, {
    id,
    userId: doc.user_id,
    name: doc.name,
    pages: result.pages,
    chunks: result.chunks,
    embedding: embedding && deps.embedder ? { ...embedding, embedder: deps.embedder } : null,
  });
  if (change) deps.publish([change]);
  // Fresh statistics, so the planner picks the full-text index (PGlite has no autovacuum;
  // without them a search over 10,000 chunks scanned them all: 82 ms against 0.6 ms).
  await deps.db.exec("ANALYZE document_chunks");
}

async function markFailed(db: Db, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE documents SET status = 'failed', failure_reason = $2, updated_at = clock_timestamp()
      WHERE id = $1 AND status = 'processing'`,
    [id, reason],
  );
}

/** A free model always; a priced one only while the owner has credits available. */
async function mayEmbed(db: Db, userId: string, embedder: Embedder): Promise<boolean> {
  if (embedder.entry.price.input_per_1k === 0) return true;
  return (await getBalance(db, userId)).available > 0;
}

interface ChunksToStore {
  id: string;
  userId: string;
  name: string;
  pages: number | null;
  chunks: readonly TextBlock[];
  embedding: (Embedding & { embedder: Embedder }) | null;
}

/**
 * All chunks, the ready status and the embeddings' charge in one transaction: a document is
 * never half-indexed, and its vectors are stored exactly when they are paid for. When the
 * owner's available credits no longer cover them, the document is indexed keyword-only
 * (`embedding_model` null). Returns the credit change to publish after commit.
 */
async function storeChunks(db: Db, input: ChunksToStore): Promise<CreditChange | null> {
  const { id, userId, chunks } = input;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      "SELECT 1 FROM documents WHERE id = $1 AND status = 'processing' FOR UPDATE",
      [id],
    );
    if (rows.length === 0) return null; // deleted meanwhile
    const charge = input.embedding ? await chargeEmbeddings(tx, input, input.embedding) : null;
    const vectors = charge?.paid ? input.embedding?.vectors : undefined;
    await tx.query("DELETE FROM document_chunks WHERE document_id = $1", [id]);
    await tx.query(
      `INSERT INTO document_chunks (document_id, user_id, ordinal, page, section, text, embedding)
       SELECT $1, $2, c.ordinal - 1, c.page, c.section, c.text, c.embedding::real[]
         FROM unnest($3::int[], $4::text[], $5::text[], $6::text[])
              WITH ORDINALITY AS c(page, section, text, embedding, ordinal)`,
      [
        id,
        userId,
        chunks.map((chunk) => chunk.page),
        chunks.map((chunk) => chunk.section),
        chunks.map((chunk) => chunk.text),
        chunks.map((_, i) => (vectors?.[i] ? `{${vectors[i].join(",")}}` : null)),
      ],
    );
    await tx.query(
      `UPDATE documents SET status = 'ready', pages = $2, chunk_count = $3, embedding_model = $4,
              failure_reason = NULL, updated_at = clock_timestamp()
        WHERE id = $1`,
      [id, input.pages, chunks.length, vectors ? (input.embedding?.embedder.model ?? null) : null],
    );
    return charge?.change ?? null;
  });
}

/** The ledger's reference (with reason `usage`) and the usage row's, one per document. */
export function embeddingsReference(documentId: string): string {
  return `document-embeddings:${documentId}`;
}

/**
 * Debits the embeddings at the catalogue price (tokens the provider reported, rounded up to
 * a hundredth) and records the usage row, in the caller's transaction. The account row is
 * locked first, so the check and the debit cannot be raced; not enough available credits
 * charges nothing and says `paid: false`.
 */
async function chargeEmbeddings(
  tx: Queryable,
  doc: { id: string; userId: string; name: string },
  embedding: Embedding & { embedder: Embedder },
): Promise<{ paid: boolean; change: CreditChange | null }> {
  const { entry } = embedding.embedder;
  const cost: Hundredths = ceilToHundredths((embedding.tokens / 1000) * entry.price.input_per_1k);
  const reference = embeddingsReference(doc.id);
  let change: CreditChange | null = null;
  if (cost > 0) {
    const { rows } = await tx.query<{ available: number | string }>(
      "SELECT balance - held AS available FROM credit_accounts WHERE user_id = $1 FOR UPDATE",
      [doc.userId],
    );
    if (Number(rows[0]?.available ?? 0) < cost) return { paid: false, change: null };
    change = await applyLedgerEntry(tx, {
      userId: doc.userId,
      credits: -creditsOf(cost),
      reason: "usage",
      reference,
      description: `Embeddings for document "${doc.name}" (${entry.id}, ${embedding.tokens} tokens)`,
    });
  }
  await insertUsage(tx, {
    userId: doc.userId,
    reference,
    model: entry.id,
    provider: entry.provider,
    inputTokens: embedding.tokens,
    outputTokens: 0,
    credits: creditsOf(cost),
  });
  return { paid: true, change };
}

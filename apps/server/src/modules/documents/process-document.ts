import type { TDocumentKind } from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { DocumentsConfig } from "../../config";
import type { Db } from "../../db/client";
import type { TextBlock } from "./chunk-text";
import type { DocumentStore } from "./document-store";
import type { Embedder } from "./embed-texts";
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
  }>("SELECT kind, storage_key, user_id FROM documents WHERE id = $1 AND status = 'processing'", [
    id,
  ]);
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
    timeoutMs: deps.config.extractTimeoutMs,
    memoryMb: deps.config.workerMemoryMb,
    signal,
  });
  if (!result.ok) {
    await markFailed(deps.db, id, result.reason);
    return;
  }
  let embeddings: number[][] | null = null;
  if (deps.embedder) {
    try {
      embeddings = await deps.embedder.embed(result.chunks.map((chunk) => chunk.text));
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
  await storeChunks(
    deps.db,
    id,
    doc.user_id,
    result.pages,
    result.chunks,
    embeddings,
    deps.embedder,
  );
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

/** All chunks and the ready status in one transaction: a document is never half-indexed. */
async function storeChunks(
  db: Db,
  id: string,
  userId: string,
  pages: number | null,
  chunks: readonly TextBlock[],
  embeddings: readonly number[][] | null,
  embedder: Embedder | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query(
      "SELECT 1 FROM documents WHERE id = $1 AND status = 'processing' FOR UPDATE",
      [id],
    );
    if (rows.length === 0) return; // deleted meanwhile
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
        chunks.map((_, i) => (embeddings?.[i] ? `{${embeddings[i].join(",")}}` : null)),
      ],
    );
    await tx.query(
      `UPDATE documents SET status = 'ready', pages = $2, chunk_count = $3, embedding_model = $4,
              failure_reason = NULL, updated_at = clock_timestamp()
        WHERE id = $1`,
      [id, pages, chunks.length, embeddings ? (embedder?.model ?? null) : null],
    );
  });
}

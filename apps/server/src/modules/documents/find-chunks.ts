import type { TDocumentChunk, TPassageResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** The document's chunks in reading order; null for another user's or an unknown document. */
export async function findChunks(
  db: Queryable,
  userId: string,
  documentId: string,
): Promise<TDocumentChunk[] | null> {
  const owned = await db.query("SELECT 1 FROM documents WHERE id = $1 AND user_id = $2", [
    documentId,
    userId,
  ]);
  if (owned.rows.length === 0) return null;
  const { rows } = await db.query<TDocumentChunk>(
    `SELECT id, ordinal, page, section, text FROM document_chunks
      WHERE document_id = $1 AND user_id = $2 ORDER BY ordinal`,
    [documentId, userId],
  );
  return rows;
}

/** One passage of the user's documents; null for another user's or an unknown chunk. */
export async function findPassage(
  db: Queryable,
  userId: string,
  chunkId: string,
): Promise<TPassageResponse["passage"] | null> {
  const { rows } = await db.query<TPassageResponse["passage"]>(
    `SELECT c.id AS chunk_id, c.document_id, d.name AS document_name, c.page, c.section,
            c.text, c.ordinal, 1::float8 AS score
       FROM document_chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.id = $1 AND c.user_id = $2 AND d.user_id = $2`,
    [chunkId, userId],
  );
  return rows[0] ?? null;
}

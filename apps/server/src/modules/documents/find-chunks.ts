import type { TDocumentChunk, TPassageResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** The document's chunks in reading order (the caller has checked access to the document). */
export async function findChunks(db: Queryable, documentId: string): Promise<TDocumentChunk[]> {
  const { rows } = await db.query<TDocumentChunk>(
    `SELECT id, ordinal, page, section, text FROM document_chunks
      WHERE document_id = $1 ORDER BY ordinal`,
    [documentId],
  );
  return rows;
}

/**
 * One passage with the workspace its document belongs to, so the caller can check the user
 * may read it; null for an unknown chunk.
 */
export async function findPassage(
  db: Queryable,
  chunkId: string,
): Promise<{ passage: TPassageResponse["passage"]; workspaceId: string } | null> {
  const { rows } = await db.query<TPassageResponse["passage"] & { workspace_id: string }>(
    `SELECT c.id AS chunk_id, c.document_id, d.name AS document_name, c.page, c.section,
            c.text, c.ordinal, 1::float8 AS score, d.workspace_id
       FROM document_chunks c JOIN documents d ON d.id = c.document_id
      WHERE c.id = $1`,
    [chunkId],
  );
  const row = rows[0];
  if (!row) return null;
  const { workspace_id, ...passage } = row;
  return { passage, workspaceId: workspace_id };
}

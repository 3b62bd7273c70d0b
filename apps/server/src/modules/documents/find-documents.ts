import type { TDocument } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { DOCUMENT_COLUMNS, type DocumentRow, documentFromRow } from "./document-row";

/** A workspace's documents, newest first (the caller has checked the user may read it). */
export async function listDocuments(db: Queryable, workspaceId: string): Promise<TDocument[]> {
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.workspace_id = $1 ORDER BY d.created_at DESC, d.id`,
    [workspaceId],
  );
  return rows.map(documentFromRow);
}

/** One document (the caller has checked access: `findDocumentFor`); null once it is gone. */
export async function findDocument(db: Queryable, id: string): Promise<TDocument | null> {
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? documentFromRow(row) : null;
}

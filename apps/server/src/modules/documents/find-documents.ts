import type { TDocument } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { DOCUMENT_COLUMNS, type DocumentRow, documentFromRow } from "./document-row";

/** The user's documents, newest first. */
export async function listDocuments(db: Queryable, userId: string): Promise<TDocument[]> {
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.user_id = $1 ORDER BY d.created_at DESC, d.id`,
    [userId],
  );
  return rows.map(documentFromRow);
}

/** One of the user's documents; null for another user's or an unknown id. */
export async function findDocument(
  db: Queryable,
  userId: string,
  id: string,
): Promise<TDocument | null> {
  const { rows } = await db.query<DocumentRow>(
    `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = $1 AND d.user_id = $2`,
    [id, userId],
  );
  const row = rows[0];
  return row ? documentFromRow(row) : null;
}

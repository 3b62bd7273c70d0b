import type { TDocument } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { DOCUMENT_COLUMNS, type DocumentRow, documentFromRow } from "./document-row";

/** A document with where its file is, for copying the files out ("download my data"). */
export interface StoredDocument {
  document: TDocument;
  storageKey: string;
}

/** Every document the user uploaded, in every workspace, oldest first. */
export async function listUploadedDocuments(
  db: Queryable,
  userId: string,
): Promise<StoredDocument[]> {
  const { rows } = await db.query<DocumentRow & { storage_key: string }>(
    `SELECT ${DOCUMENT_COLUMNS}, d.storage_key FROM documents d
     WHERE d.user_id = $1 ORDER BY d.created_at, d.id`,
    [userId],
  );
  return rows.map((row) => ({ document: documentFromRow(row), storageKey: row.storage_key }));
}

/** A document to erase with its uploader (whose storage quota it counts against). */
export interface DocumentOwner {
  id: string;
  userId: string;
}

/**
 * The documents an account deletion erases: the user's own uploads, and everything in the
 * workspaces that go with the account. Each is then deleted with `deleteDocument`, so its
 * file leaves the store too (a cascade would leave the file behind).
 */
export async function listDocumentsToErase(
  db: Queryable,
  userId: string,
  workspaceIds: readonly string[],
): Promise<DocumentOwner[]> {
  const { rows } = await db.query<{ id: string; user_id: string }>(
    "SELECT id, user_id FROM documents WHERE user_id = $1 OR workspace_id = ANY($2::uuid[])",
    [userId, [...workspaceIds]],
  );
  return rows.map((row) => ({ id: row.id, userId: row.user_id }));
}

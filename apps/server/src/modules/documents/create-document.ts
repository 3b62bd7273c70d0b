import type { TDocumentKind, TDocumentStore } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { fitsStorage, reserveStorage } from "./document-quota";

export interface NewDocument {
  id: string;
  /** The uploader, whose storage quota the file counts against. */
  userId: string;
  /** The workspace it belongs to (decision 040). */
  workspaceId: string;
  name: string;
  kind: TDocumentKind;
  mediaType: string;
  sizeBytes: number;
  store: TDocumentStore;
}

/**
 * Records a stored upload as `processing`, counting it against the quota in the same
 * transaction. False (and nothing written) when the quota would be exceeded.
 */
export function createDocument(db: Db, doc: NewDocument, quotaBytes: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await fitsStorage(tx, doc.userId, doc.sizeBytes, quotaBytes))) return false;
    if (!(await reserveStorage(tx, doc.userId, doc.sizeBytes, quotaBytes))) return false;
    await tx.query(
      `INSERT INTO documents
         (id, user_id, name, kind, media_type, size_bytes, store, storage_key, workspace_id)
       VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $1::text, $8)`,
      [
        doc.id,
        doc.userId,
        doc.name,
        doc.kind,
        doc.mediaType,
        doc.sizeBytes,
        doc.store,
        doc.workspaceId,
      ],
    );
    return true;
  });
}

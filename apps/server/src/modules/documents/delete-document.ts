import type { Db } from "../../db/client";
import { releaseStorage } from "./document-quota";
import type { DocumentStore } from "./document-store";

/**
 * Deletes a document `userId` uploaded: its row (chunks, vectors and session attachments go
 * with it, by cascade), its quota back to the uploader (storage counts per uploader), then
 * its file. False for an unknown id or another uploader's. Whether the caller may delete it
 * (the uploader, or an admin of its workspace) is checked before: `findChangeableDocument`.
 */
export async function deleteDocument(
  db: Db,
  store: DocumentStore,
  userId: string,
  id: string,
): Promise<boolean> {
  const deleted = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ storage_key: string; size_bytes: number | string }>(
      "DELETE FROM documents WHERE id = $1 AND user_id = $2 RETURNING storage_key, size_bytes",
      [id, userId],
    );
    const row = rows[0];
    if (!row) return null;
    await releaseStorage(tx, userId, Number(row.size_bytes));
    return row;
  });
  if (!deleted) return false;
  await store.remove(deleted.storage_key);
  return true;
}

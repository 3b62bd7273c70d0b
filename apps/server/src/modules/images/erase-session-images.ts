import type { Queryable } from "../../db/client";
import type { DocumentStore } from "../documents/document-store";

/**
 * Erases the pictures of sessions that go with an account (decision 064): rows and files.
 * A file that is already gone is no error. Returns how many were erased.
 */
export async function eraseSessionImages(
  db: Queryable,
  store: DocumentStore,
  sessionIds: readonly string[],
): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const { rows } = await db.query<{ storage_key: string }>(
    "DELETE FROM generated_images WHERE session_id = ANY($1::uuid[]) RETURNING storage_key",
    [sessionIds],
  );
  for (const row of rows) await store.remove(row.storage_key);
  return rows.length;
}

import type { Queryable } from "../../db/client";
import type { DocumentStore } from "../documents/document-store";

/**
 * Erases the files run_code wrote in sessions that go with an account (decision 076): rows
 * and bytes, as the pictures are (decision 064). A file that is already gone is no error.
 * Returns how many were erased.
 */
export async function eraseSessionCodeFiles(
  db: Queryable,
  store: DocumentStore,
  sessionIds: readonly string[],
): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const { rows } = await db.query<{ storage_key: string }>(
    "DELETE FROM code_run_files WHERE session_id = ANY($1::uuid[]) RETURNING storage_key",
    [sessionIds],
  );
  for (const row of rows) await store.remove(row.storage_key);
  return rows.length;
}

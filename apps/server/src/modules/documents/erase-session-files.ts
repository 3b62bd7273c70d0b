import type { Queryable } from "../../db/client";
import type { DocumentStore } from "./document-store";

/**
 * An eraser for a table of stored files kept per session (pictures, decision 064; run_code's
 * files, decision 076): `deleteReturningKeys` deletes the rows of the sessions `$1` and returns
 * their `storage_key`s; the eraser then removes those files (one already gone is no error) and
 * returns how many rows went.
 */
export function sessionFilesEraser(deleteReturningKeys: string) {
  return async (
    db: Queryable,
    store: DocumentStore,
    sessionIds: readonly string[],
  ): Promise<number> => {
    if (sessionIds.length === 0) return 0;
    const { rows } = await db.query<{ storage_key: string }>(deleteReturningKeys, [sessionIds]);
    for (const row of rows) await store.remove(row.storage_key);
    return rows.length;
  };
}

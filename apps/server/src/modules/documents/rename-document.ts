import type { Db } from "../../db/client";

/**
 * Renames a document; false when it is gone. The caller has checked the user may
 * (`findChangeableDocument`).
 */
export async function renameDocument(db: Db, id: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE documents SET name = $2, updated_at = clock_timestamp() WHERE id = $1",
    [id, name],
  );
  return rowCount === 1;
}

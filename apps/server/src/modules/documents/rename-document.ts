import type { Db } from "../../db/client";

/** Renames one of the user's documents; false for another user's or unknown id. */
export async function renameDocument(
  db: Db,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE documents SET name = $3, updated_at = clock_timestamp() WHERE id = $1 AND user_id = $2",
    [id, userId, name],
  );
  return rowCount === 1;
}

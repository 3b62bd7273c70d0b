import type { Queryable } from "../../db/client";

/**
 * The session's attached documents by id and name, oldest attachment first: what an export
 * of the session names (their files are not part of it). The caller checked access to the
 * session; the documents are in its workspace.
 */
export async function listAttachedDocumentNames(
  db: Queryable,
  sessionId: string,
): Promise<{ id: string; name: string }[]> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT d.id, d.name FROM session_documents sd JOIN documents d ON d.id = sd.document_id
     WHERE sd.session_id = $1 ORDER BY sd.attached_at, d.id`,
    [sessionId],
  );
  return rows;
}

import { DOCUMENT_ERROR_CODES, type TSessionDocument } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { DocumentSearch } from "./document-search";

/**
 * Session attachments (the session_documents table, decision 037): the documents a session's
 * runs work from. Only documents of the session's own workspace can be attached (decision
 * 040); the caller has checked the user's role in it.
 */

/** The session's attached document ids, oldest attachment first. */
export async function attachedDocumentIds(db: Queryable, sessionId: string): Promise<string[]> {
  const { rows } = await db.query<{ document_id: string }>(
    "SELECT document_id FROM session_documents WHERE session_id = $1 ORDER BY attached_at, document_id",
    [sessionId],
  );
  return rows.map((r) => r.document_id);
}

/** The session's attached documents (`workspaceId`: the session's workspace). */
export async function listSessionDocuments(
  db: Queryable,
  search: Pick<DocumentSearch, "describe">,
  workspaceId: string,
  sessionId: string,
): Promise<TSessionDocument[]> {
  const { rows } = await db.query<{ document_id: string; attached_at: Date | string }>(
    "SELECT document_id, attached_at FROM session_documents WHERE session_id = $1 ORDER BY attached_at, document_id",
    [sessionId],
  );
  if (rows.length === 0) return [];
  const described = await search.describe(
    workspaceId,
    rows.map((r) => r.document_id),
  );
  const byId = new Map(described.map((d) => [d.id, d]));
  return rows.flatMap((row) => {
    const d = byId.get(row.document_id);
    if (!d) return [];
    return [
      {
        id: d.id,
        name: d.name,
        status: d.status,
        pages: d.pages,
        attached_at: new Date(row.attached_at).toISOString(),
      },
    ];
  });
}

/** `missing`: the ids that are not documents of the session's workspace. */
export function unknownDocuments(missing: readonly string[]): AppError {
  return new AppError(
    DOCUMENT_ERROR_CODES.notFound,
    404,
    "One of these documents does not exist.",
    { document_ids: missing },
  );
}

/**
 * Replaces the session's attachments with `documentIds` (documents of `workspaceId`, the
 * session's workspace, each once): kept ones keep their attachment time, new ones are
 * attached now, missing ones are detached. An id that is not a document of that workspace
 * refuses the whole change (404, as for a document that does not exist, naming the id).
 */
export async function replaceSessionDocuments(
  db: Queryable,
  search: Pick<DocumentSearch, "describe">,
  workspaceId: string,
  sessionId: string,
  documentIds: readonly string[],
): Promise<void> {
  const wanted = [...new Set(documentIds)];
  const found = new Set((await search.describe(workspaceId, wanted)).map((d) => d.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) throw unknownDocuments(missing);
  // In the order given, so attachment times follow it.
  await db.query(
    `WITH kept AS (
       DELETE FROM session_documents
        WHERE session_id = $1 AND NOT (document_id = ANY($2::uuid[]))
     )
     INSERT INTO session_documents (session_id, document_id, attached_at)
     SELECT $1, id, clock_timestamp() + (ord * interval '1 microsecond')
       FROM unnest($2::uuid[]) WITH ORDINALITY AS w(id, ord)
     ON CONFLICT (session_id, document_id) DO NOTHING`,
    [sessionId, wanted],
  );
}

import { hundredthsOf, type TChatMessage, type TExportedSession } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface ImportedSession {
  /** The new session's id (the caller maps every id of the export to a fresh one). */
  id: string;
  userId: string;
  workspaceId: string;
  session: TExportedSession;
  /** The documents the export named, with fresh ids: kept as names, never attached. */
  documents: { id: string; name: string }[];
  /** The conversation with fresh ids, in the export's order and with its times. */
  messages: TChatMessage[];
  /** When the export was made: the copy is marked with it. */
  exportedAt: string;
  /** The export's size, counted against the importer's storage quota while the copy exists. */
  bytes: number;
}

/**
 * Writes a session that came in with an import and its conversation. Its settings, status
 * and spent credits are the export's: `spent_credits` is what its runs cost where they ran,
 * shown as history; no credits move (the caller writes no hold, usage or ledger row).
 */
export async function importSession(db: Queryable, input: ImportedSession): Promise<void> {
  const { session } = input;
  await db.query(
    `INSERT INTO sessions (id, user_id, workspace_id, title, description, coordinator_model,
       manual_agent_selection, agent_preferences, status, budget_credits, spent_credits,
       imported_at, imported_documents, imported_export_at, imported_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, clock_timestamp(), $12::jsonb,
       $13, $14)`,
    [
      input.id,
      input.userId,
      input.workspaceId,
      session.title,
      session.description,
      session.coordinator_model,
      session.manual_agent_selection,
      session.agent_preferences === null ? null : JSON.stringify(session.agent_preferences),
      session.status,
      session.budget_credits === null ? null : hundredthsOf(session.budget_credits),
      hundredthsOf(session.spent_credits),
      JSON.stringify(input.documents),
      input.exportedAt,
      input.bytes,
    ],
  );
  if (input.messages.length === 0) return;
  await db.query(
    `INSERT INTO session_messages (id, session_id, role, content, run_id, created_at,
       parent_run_id, shown_at)
     SELECT m.id, $1, m.role, m.content, m.run_id, m.created_at, m.parent_run_id,
       COALESCE(m.shown_at, m.created_at)
     FROM jsonb_to_recordset($2::jsonb)
       AS m(id uuid, role text, content text, run_id uuid, created_at timestamptz,
         parent_run_id uuid, shown_at timestamptz)`,
    [input.id, JSON.stringify(input.messages)],
  );
}

/** When the session came in with an import (null: it did not), and the documents it named. */
export async function findSessionImport(
  db: Queryable,
  sessionId: string,
): Promise<{ importedAt: string | null; documents: { id: string; name: string }[] }> {
  const { rows } = await db.query<{
    imported_at: Date | string | null;
    imported_documents: { id: string; name: string }[] | string | null;
  }>("SELECT imported_at, imported_documents FROM sessions WHERE id = $1", [sessionId]);
  const row = rows[0];
  const documents = row?.imported_documents ?? [];
  return {
    importedAt: row?.imported_at ? new Date(row.imported_at).toISOString() : null,
    documents: typeof documents === "string" ? JSON.parse(documents) : documents,
  };
}

/** What the user's imported sessions take of their storage quota (decision 052). */
export async function importedSessionBytes(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ bytes: number | string | null }>(
    "SELECT sum(imported_bytes) AS bytes FROM sessions WHERE user_id = $1 AND imported_bytes > 0",
    [userId],
  );
  return Number(rows[0]?.bytes ?? 0);
}

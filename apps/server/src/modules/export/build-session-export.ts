import {
  SESSION_EXPORT_FORMAT,
  SESSION_EXPORT_VERSION,
  type TExportedRun,
  type TSessionExport,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { listAttachedDocumentNames } from "../documents/list-attached-document-names";
import { listSessionImages } from "../images/find-image";
import { toImageRef } from "../images/image-row";
import { listCriticVerdicts } from "../orchestration/list-critic-verdicts";
import { listToolCalls } from "../orchestration/list-tool-calls";
import { listRuns } from "../orchestration/run-store";
import { getSession, sessionNotFound } from "../sessions/find-session";
import { findSessionImport } from "../sessions/import-session";
import { listMessages } from "../sessions/list-messages";

/**
 * The lossless JSON export of a session (contracts `ZSessionExport`): its settings, its whole
 * conversation and every run with everything stored about it. The caller has checked that
 * the reader may see the session; Markdown, PDF and the data zip are made from this.
 */
export async function buildSessionExport(
  db: Queryable,
  sessionId: string,
): Promise<TSessionExport> {
  const session = await getSession(db, sessionId);
  if (!session) throw sessionNotFound();
  const [messages, runs, verdicts, attached, imported, toolCalls, images] = await Promise.all([
    listMessages(db, sessionId),
    listRuns(db, sessionId),
    listCriticVerdicts(db, sessionId),
    listAttachedDocumentNames(db, sessionId),
    findSessionImport(db, sessionId),
    listToolCalls(db, sessionId),
    listSessionImages(db, sessionId),
  ]);
  return {
    format: SESSION_EXPORT_FORMAT,
    version: SESSION_EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    session: {
      id: session.id,
      title: session.title,
      description: session.description,
      coordinator_model: session.coordinator_model,
      manual_agent_selection: session.manual_agent_selection,
      agent_preferences: session.agent_preferences,
      budget_credits: session.budget_credits,
      spent_credits: session.spent_credits,
      status: session.status,
      created_at: session.created_at,
      workspace_id: session.workspaceId,
      imported_at: imported.importedAt,
    },
    messages,
    runs: runs.map(
      (run): TExportedRun => ({
        ...run,
        passages: run.passages ?? [],
        cited: run.cited ?? [],
        memories: run.memories ?? [],
        imported: run.imported ?? false,
        critic_verdicts: verdicts.get(run.id) ?? [],
        tool_calls: toolCalls.get(run.id) ?? [],
      }),
    ),
    documents: [...imported.documents, ...attached],
    images: images.map(toImageRef),
  };
}

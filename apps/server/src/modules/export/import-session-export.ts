import { randomUUID } from "node:crypto";
import type { TSessionImportResponse } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { importRuns } from "../orchestration/import-runs";
import { importSession } from "../sessions/import-session";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { keepExportOrder } from "./keep-export-order";
import { parseSessionExport } from "./parse-session-export";
import { remapExportIds } from "./remap-export-ids";

/**
 * A JSON export as a new session in a workspace where the caller is a member or above (the
 * caller's personal one by default). Every id is new; documents and memories come as names
 * and texts only; the runs are marked imported and cost nothing. All or nothing: a failure
 * leaves no trace.
 */
export async function importSessionExport(
  db: Db,
  userId: string,
  workspaceId: string | undefined,
  body: unknown,
): Promise<TSessionImportResponse> {
  const parsed = parseSessionExport(body);
  const access = await requireWorkspaceAccess(db, userId, workspaceId, "member");
  const sessionId = randomUUID();
  const data = keepExportOrder(remapExportIds(parsed, sessionId));
  await db.transaction(async (tx) => {
    await importSession(tx, {
      id: sessionId,
      userId,
      workspaceId: access.workspaceId,
      session: data.session,
      documents: data.documents,
      messages: data.messages,
    });
    await importRuns(tx, sessionId, userId, data.runs);
  });
  return {
    session_id: sessionId,
    title: data.session.title,
    runs: data.runs.length,
    messages: data.messages.length,
  };
}

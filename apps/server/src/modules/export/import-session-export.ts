import { randomUUID } from "node:crypto";
import {
  DOCUMENT_ERROR_CODES,
  DOCUMENT_QUOTA_BYTES,
  importedTitle,
  type TSessionImportResponse,
  type TSubscriptionTier,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { formatMb } from "../documents/check-upload";
import { fitsStorage } from "../documents/document-quota";
import type { Catalogue } from "../models/catalogue";
import { linkStraightBranch } from "../orchestration/branch-history";
import { importRuns } from "../orchestration/import-runs";
import { checkModelChoices } from "../sessions/check-model-choices";
import { importSession } from "../sessions/import-session";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { keepExportOrder } from "./keep-export-order";
import { parseSessionExport } from "./parse-session-export";
import { remapExportIds } from "./remap-export-ids";

export interface Importer {
  id: string;
  tier: TSubscriptionTier;
}

function importQuotaExceeded(bytes: number, quotaBytes: number): AppError {
  return new AppError(
    DOCUMENT_ERROR_CODES.quotaExceeded,
    413,
    `This export (${formatMb(bytes)}) does not fit in your storage (${formatMb(quotaBytes)} on your plan, shared by documents and imported sessions). Delete documents or imported sessions, or upgrade your plan.`,
  );
}

/**
 * A JSON export as a new session in a workspace where the caller is a member or above (the
 * caller's personal one by default). Every field is held to the contract that creates it here
 * and its models must be this server's, as for a new session; the copy has a title of its
 * own, is marked with the export's date, and counts against the importer's storage quota
 * (decision 052). Every id is new; documents and memories come as names and texts only; the
 * runs are marked imported and cost nothing. All or nothing: a failure leaves no trace.
 */
export async function importSessionExport(
  db: Db,
  catalogue: Catalogue,
  importer: Importer,
  workspaceId: string | undefined,
  body: unknown,
): Promise<TSessionImportResponse> {
  const parsed = parseSessionExport(body);
  checkModelChoices(catalogue, parsed.session);
  const access = await requireWorkspaceAccess(db, importer.id, workspaceId, "member");
  const sessionId = randomUUID();
  const data = keepExportOrder(remapExportIds(parsed, sessionId));
  const title = importedTitle(data.session.title);
  const bytes = Buffer.byteLength(JSON.stringify(body));
  const quotaBytes = DOCUMENT_QUOTA_BYTES[importer.tier];
  await db.transaction(async (tx) => {
    if (!(await fitsStorage(tx, importer.id, bytes, quotaBytes))) {
      throw importQuotaExceeded(bytes, quotaBytes);
    }
    await importSession(tx, {
      id: sessionId,
      userId: importer.id,
      workspaceId: access.workspaceId,
      session: { ...data.session, title },
      documents: data.documents,
      messages: data.messages,
      exportedAt: data.exported_at,
      bytes,
    });
    await importRuns(tx, sessionId, importer.id, data.runs);
    // An export from before branches: its conversation is one branch (decision 070).
    await linkStraightBranch(tx, sessionId);
  });
  return {
    session_id: sessionId,
    title,
    runs: data.runs.length,
    messages: data.messages.length,
  };
}

import { ERROR_CODES, type TWorkspaceRole } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findWorkspaceAccess, requireRole } from "../workspaces/workspace-access";

export function documentNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "Document not found.");
}

/** A document's workspace and uploader, with the caller's role in that workspace. */
export interface DocumentAccess {
  documentId: string;
  workspaceId: string;
  uploaderId: string;
  role: TWorkspaceRole;
}

/**
 * The one access check for a single document (decision 040): any member of its workspace
 * reads it; anyone else gets the same 404 as for a document that does not exist, and a
 * member whose role is below `least` gets 403 `workspace_role_too_low`.
 */
export async function findDocumentFor(
  db: Queryable,
  userId: string,
  documentId: string,
  least: TWorkspaceRole = "viewer",
): Promise<DocumentAccess> {
  if (!isUuid(documentId)) throw documentNotFound();
  const { rows } = await db.query<{ workspace_id: string; user_id: string }>(
    "SELECT workspace_id, user_id FROM documents WHERE id = $1",
    [documentId],
  );
  const row = rows[0];
  const access = row ? await findWorkspaceAccess(db, userId, row.workspace_id) : null;
  if (!row || !access) throw documentNotFound();
  requireRole(access, least);
  return { documentId, workspaceId: row.workspace_id, uploaderId: row.user_id, role: access.role };
}

/**
 * Renaming or deleting a document: its uploader (while a member, not a viewer) or an admin
 * or owner of its workspace.
 */
export async function findChangeableDocument(
  db: Queryable,
  userId: string,
  documentId: string,
): Promise<DocumentAccess> {
  const access = await findDocumentFor(db, userId, documentId, "member");
  if (access.uploaderId !== userId) requireRole(access, "admin");
  return access;
}

import {
  ERROR_CODES,
  TEMPLATE_MESSAGES,
  type TWorkspaceRole,
  WORKSPACE_ERROR_CODES,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findWorkspaceAccess, requireRole } from "../workspaces/workspace-access";
import {
  canEditTemplate,
  TEMPLATE_SELECT,
  type TemplateRow,
  type TemplateViewer,
} from "./template-row";

export function templateNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, TEMPLATE_MESSAGES.notFound);
}

/** A template with the caller's place in its workspace. */
export interface TemplateAccess {
  row: TemplateRow;
  viewer: TemplateViewer;
}

/**
 * The template if the caller can see it: a member of its workspace, and it is shared or
 * theirs. Anyone else gets the 404 of a template that does not exist (another member's
 * unshared template included: it is private). A member whose role is below `least` gets 403.
 */
export async function findTemplateFor(
  db: Queryable,
  userId: string,
  templateId: string,
  least: TWorkspaceRole = "viewer",
): Promise<TemplateAccess> {
  if (!isUuid(templateId)) throw templateNotFound();
  const { rows } = await db.query<TemplateRow>(`${TEMPLATE_SELECT} WHERE t.id = $1`, [templateId]);
  const row = rows[0];
  if (!row || (!row.shared && row.created_by !== userId)) throw templateNotFound();
  const access = await findWorkspaceAccess(db, userId, row.workspace_id);
  if (!access) throw templateNotFound();
  requireRole(access, least);
  return { row, viewer: { userId, role: access.role } };
}

/** 403 unless the caller may change the template (its creator, or an admin). */
export function requireTemplateEditable({ row, viewer }: TemplateAccess): void {
  if (canEditTemplate(row, viewer)) return;
  // A viewer hears that viewers only read; a member that only its creator or an admin may.
  requireRole(viewer, "member");
  throw new AppError(WORKSPACE_ERROR_CODES.roleTooLow, 403, TEMPLATE_MESSAGES.notYours, {
    role: viewer.role,
    needs: "admin",
  });
}

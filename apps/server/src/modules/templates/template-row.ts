import {
  roleAtLeast,
  type TTemplate,
  type TTemplateSetup,
  type TWorkspaceRole,
  ZTemplateSetup,
} from "@cohort/contracts";
import { isoTimestamp } from "../../db/client";

/** The session_templates table as queries return it, with its creator's name joined. */
export interface TemplateRow {
  id: string;
  workspace_id: string;
  created_by: string | null;
  creator_name: string | null;
  name: string;
  description: string;
  shared: boolean;
  setup: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Columns of `session_templates t` with the creator's name (a LEFT JOIN on users u). */
export const TEMPLATE_SELECT = `SELECT t.id, t.workspace_id, t.created_by, t.name, t.description,
  t.shared, t.setup, t.created_at, t.updated_at,
  NULLIF(trim(COALESCE(NULLIF(u.display_name, ''), u.first_name || ' ' || u.last_name)), '') AS creator_name
  FROM session_templates t LEFT JOIN users u ON u.id = t.created_by`;

/** Who looks at a template: what they may do with it follows from this. */
export interface TemplateViewer {
  userId: string;
  role: TWorkspaceRole;
}

/**
 * Changing a template (rename, share, edit, delete): its creator while a member or more, or
 * an admin of the workspace (decision 040's "delete what they created" / "delete anyone's").
 */
export function canEditTemplate(
  row: Pick<TemplateRow, "created_by">,
  viewer: TemplateViewer,
): boolean {
  return roleAtLeast(viewer.role, row.created_by === viewer.userId ? "member" : "admin");
}

/**
 * The stored setup read back through its schema: a setup saved before a field existed gets
 * that field's default, so an older template still starts a session.
 */
export function storedSetup(value: unknown): TTemplateSetup {
  return ZTemplateSetup.parse(value);
}

export function toTemplate(row: TemplateRow, viewer: TemplateViewer): TTemplate {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    shared: row.shared,
    created_by_name: row.creator_name,
    is_mine: row.created_by === viewer.userId,
    can_edit: canEditTemplate(row, viewer),
    setup: storedSetup(row.setup),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

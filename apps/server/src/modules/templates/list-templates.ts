import type { TTemplate } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import type { WorkspaceAccess } from "../workspaces/workspace-access";
import { TEMPLATE_SELECT, type TemplateRow, toTemplate } from "./template-row";

/**
 * The templates of a workspace the caller sees (the caller's access is checked): every
 * shared one and the caller's own unshared ones, by name.
 */
export async function listTemplates(
  db: Queryable,
  userId: string,
  access: WorkspaceAccess,
): Promise<TTemplate[]> {
  const { rows } = await db.query<TemplateRow>(
    `${TEMPLATE_SELECT} WHERE t.workspace_id = $1 AND (t.shared OR t.created_by = $2)
     ORDER BY lower(t.name), t.created_at, t.id`,
    [access.workspaceId, userId],
  );
  return rows.map((row) => toTemplate(row, { userId, role: access.role }));
}

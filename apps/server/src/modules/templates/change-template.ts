import type { TTemplateSetup } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { templateNotFound } from "./find-template";
import { TEMPLATE_SELECT, type TemplateRow } from "./template-row";

export interface NewTemplate {
  workspaceId: string;
  name: string;
  description: string;
  shared: boolean;
  setup: TTemplateSetup;
}

/** Stores a template made by `userId`; the caller checked plan, role and setup. */
export async function createTemplate(
  db: Queryable,
  userId: string,
  input: NewTemplate,
): Promise<TemplateRow> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO session_templates (workspace_id, created_by, name, description, shared, setup)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id`,
    [
      input.workspaceId,
      userId,
      input.name,
      input.description,
      input.shared,
      JSON.stringify(input.setup),
    ],
  );
  return readTemplate(db, rows[0]?.id as string);
}

export interface TemplateChanges {
  name?: string | undefined;
  description?: string | undefined;
  shared?: boolean | undefined;
  setup?: TTemplateSetup | undefined;
}

/** Applies a PATCH (fields left out stay); the caller checked that the user may. */
export async function updateTemplate(
  db: Queryable,
  templateId: string,
  changes: TemplateChanges,
): Promise<TemplateRow> {
  const { rowCount } = await db.query(
    `UPDATE session_templates SET
       name = COALESCE($2, name),
       description = COALESCE($3, description),
       shared = COALESCE($4, shared),
       setup = COALESCE($5::jsonb, setup),
       updated_at = clock_timestamp()
     WHERE id = $1`,
    [
      templateId,
      changes.name ?? null,
      changes.description ?? null,
      changes.shared ?? null,
      changes.setup === undefined ? null : JSON.stringify(changes.setup),
    ],
  );
  if (rowCount === 0) throw templateNotFound();
  return readTemplate(db, templateId);
}

/** Deletes a template; the sessions started from it keep their setup. */
export async function deleteTemplate(db: Queryable, templateId: string): Promise<void> {
  const { rowCount } = await db.query("DELETE FROM session_templates WHERE id = $1", [templateId]);
  if (rowCount === 0) throw templateNotFound();
}

async function readTemplate(db: Queryable, templateId: string): Promise<TemplateRow> {
  const { rows } = await db.query<TemplateRow>(`${TEMPLATE_SELECT} WHERE t.id = $1`, [templateId]);
  if (!rows[0]) throw templateNotFound();
  return rows[0];
}

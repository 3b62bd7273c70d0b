import type { TTemplateSetup } from "@cohort/contracts";
import type { Db } from "../../db/client";
import type { DocumentSearch } from "../documents/document-search";
import { replaceSessionDocuments } from "../documents/session-documents";
import type { Catalogue } from "../models/catalogue";
import { checkModelChoices } from "../sessions/check-model-choices";
import { createSession } from "../sessions/create-session";
import type { StoredSession } from "../sessions/session-row";

export interface StartFromTemplateDeps {
  db: Db;
  catalogue: Catalogue;
  search: Pick<DocumentSearch, "describe">;
}

/**
 * A new session in `workspaceId` with the template's setup, and its documents attached —
 * those the caller can still attach (a document deleted since the template was saved is
 * left out, not an error). The models are checked again: one may have left the catalogue.
 */
export async function startFromTemplate(
  deps: StartFromTemplateDeps,
  userId: string,
  workspaceId: string,
  title: string,
  setup: TTemplateSetup,
): Promise<{ session: StoredSession; documentIds: string[] }> {
  checkModelChoices(deps.catalogue, setup);
  const present = new Set(
    (await deps.search.describe(workspaceId, setup.document_ids)).map((document) => document.id),
  );
  const documentIds = setup.document_ids.filter((id) => present.has(id));
  const session = await createSession(deps.db, userId, {
    workspace_id: workspaceId,
    title,
    description: "",
    coordinator_model: setup.coordinator_model,
    manual_agent_selection: setup.manual_agent_selection,
    agent_preferences: setup.agent_preferences,
    budget_credits: setup.budget_credits,
    tools: setup.tools,
    review_plan: setup.review_plan,
  });
  if (documentIds.length > 0) {
    await replaceSessionDocuments(deps.db, deps.search, workspaceId, session.id, documentIds);
  }
  return { session, documentIds };
}

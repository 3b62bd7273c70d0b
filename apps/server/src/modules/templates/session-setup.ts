import { type TTemplateSetup, ZTemplateSetup } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { attachedDocumentIds } from "../documents/session-documents";
import { findSessionFor } from "../sessions/find-session";

/**
 * A session's setup as a template keeps it: coordinator, team (roles on/off, models,
 * instructions), budget and attached documents. Saving one is a change in the session's
 * workspace, so the caller needs the member role there (404 for a session they cannot see).
 */
export async function sessionSetup(
  db: Queryable,
  userId: string,
  sessionId: string,
): Promise<{ workspaceId: string; setup: TTemplateSetup }> {
  const session = await findSessionFor(db, userId, sessionId, { least: "member" });
  const setup = ZTemplateSetup.parse({
    coordinator_model: session.coordinator_model,
    manual_agent_selection: session.manual_agent_selection,
    agent_preferences: session.agent_preferences,
    budget_credits: session.budget_credits,
    tools: session.tools,
    review_plan: session.review_plan,
    document_ids: await attachedDocumentIds(db, session.id),
  });
  return { workspaceId: session.workspaceId, setup };
}

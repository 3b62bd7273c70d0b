import { hundredthsOf, type TSession } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { SESSION_COLUMNS, type SessionRow, type StoredSession, toSession } from "./session-row";

export interface NewSession {
  title: string;
  description: string;
  coordinator_model: string;
  manual_agent_selection: boolean;
  agent_preferences: TSession["agent_preferences"];
  budget_credits: number | null;
  /** Tool settings (decision 058); null or left out: the defaults. */
  tools?: TSession["tools"] | null | undefined;
  /** "Review the plan first" (decision 069); left out: off. */
  review_plan?: boolean | undefined;
  /** Left out: the creator's personal workspace. */
  workspace_id?: string | undefined;
}

/**
 * Creates an active session in its workspace; the caller has checked the model choices and
 * that `userId` may create sessions there (member+).
 */
export async function createSession(
  db: Queryable,
  userId: string,
  input: NewSession,
): Promise<StoredSession> {
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO sessions
       (user_id, title, description, coordinator_model, manual_agent_selection, agent_preferences, budget_credits, workspace_id, tools, review_plan)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9::jsonb, $10)
     RETURNING ${SESSION_COLUMNS}`,
    [
      userId,
      input.title,
      input.description,
      input.coordinator_model,
      input.manual_agent_selection,
      input.agent_preferences === null ? null : JSON.stringify(input.agent_preferences),
      input.budget_credits === null ? null : hundredthsOf(input.budget_credits),
      // NULL: the insert trigger gives the creator's personal workspace.
      input.workspace_id ?? null,
      input.tools ? JSON.stringify(input.tools) : null,
      input.review_plan ?? false,
    ],
  );
  return toSession(rows[0] as SessionRow);
}

import {
  creditsOf,
  defaultSessionTools,
  type Hundredths,
  type TAgentPreferences,
  type TChatMessage,
  type TSession,
  type TSessionStatus,
  type TSessionToolSettings,
} from "@cohort/contracts";
import { isoTimestamp, timestampText } from "../../db/client";

/** A timestamptz as `row_to_json` / `json_agg` write it (ISO 8601 with its offset), as the API's ISO 8601. */
export const isoFromJson = timestampText((text) => new Date(text));

/** The sessions table as queries return it; only this module's files read it. */
export interface SessionRow {
  id: string;
  user_id: string;
  /** The workspace it belongs to (decision 040); a personal one has its user's id. */
  workspace_id: string;
  title: string;
  description: string;
  coordinator_model: string;
  manual_agent_selection: boolean;
  agent_preferences: TAgentPreferences | null;
  status: TSessionStatus;
  budget_credits: Hundredths | null;
  spent_credits: Hundredths;
  /** A string only from a statement marked `isoTimestamps` (already ISO 8601). */
  created_at: Date | string;
  updated_at: Date | string;
  /** An imported copy: the date of the export it came from (decision 052). */
  imported_export_at?: Date | string | null;
  /** Its tool settings (decision 058); null: the defaults. */
  tools: TSessionToolSettings | null;
  /** "Review the plan first" (decision 069). */
  review_plan: boolean;
}

export const SESSION_COLUMNS =
  "id, user_id, workspace_id, title, description, coordinator_model, manual_agent_selection, agent_preferences, status, budget_credits, spent_credits, created_at, updated_at, imported_export_at, tools, review_plan";

/** A session as stored; what it is doing (`activity`) is added from its runs on the way out. */
export type StoredSession = Omit<TSession, "activity" | "last_activity_at">;

export function toSession(row: SessionRow): StoredSession {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    title: row.title,
    description: row.description,
    coordinator_model: row.coordinator_model,
    manual_agent_selection: row.manual_agent_selection,
    agent_preferences: row.agent_preferences,
    status: row.status,
    budget_credits: row.budget_credits === null ? null : creditsOf(row.budget_credits),
    spent_credits: creditsOf(row.spent_credits),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
    tools: row.tools ?? defaultSessionTools(),
    review_plan: row.review_plan,
    // Only on an imported copy, so every other session reads as before.
    ...(row.imported_export_at
      ? { imported_from_export_at: isoTimestamp(row.imported_export_at) }
      : {}),
  };
}

/**
 * A session with who created it and the workspace it belongs to, for services that act on
 * a member's behalf (runs, budgets; the workspace's account pays).
 */
export interface OwnedSession extends StoredSession {
  userId: string;
  workspaceId: string;
}

export function toOwnedSession(row: SessionRow): OwnedSession {
  return { ...toSession(row), userId: row.user_id, workspaceId: row.workspace_id };
}

/** The session as the API shows it, without the server-side facts an `OwnedSession` adds. */
export function toStoredSession(session: OwnedSession & { role?: unknown }): StoredSession {
  const { userId: _creator, workspaceId: _workspace, role: _role, ...shown } = session;
  return shown;
}

export interface MessageRow {
  id: string;
  session_id: string;
  role: "user" | "assistant";
  content: string;
  run_id: string | null;
  created_at: Date | string;
  /** Migration 0046 (decision 070): the run a user message follows; when it was last shown. */
  parent_run_id?: string | null;
  shown_at?: Date | string;
}

export const MESSAGE_COLUMNS =
  "id, session_id, role, content, run_id, created_at, parent_run_id, shown_at";

export function toChatMessage(row: MessageRow): TChatMessage {
  return {
    id: row.id,
    session_id: row.session_id,
    role: row.role,
    content: row.content,
    run_id: row.run_id,
    created_at: new Date(row.created_at).toISOString(),
    ...(row.role === "user" ? { parent_run_id: row.parent_run_id ?? null } : {}),
    ...(row.shown_at ? { shown_at: new Date(row.shown_at).toISOString() } : {}),
  };
}

import { z } from "zod";
import { ZAgentRoleId } from "./models";
import { ZCreditAmount } from "./money";
import { defaultSessionTools, ZSessionToolSettings } from "./tools";
import { ZWorkspaceScope } from "./workspaces";

// ---------------------------------------------------------------------------------------
// Sessions (the data model and the API): a conversation in which the coordinator and the agents work.
// ---------------------------------------------------------------------------------------

/** The session statuses are ours: docs/decisions/009-sessions-and-runs.md. */
export const SESSION_STATUSES = ["active", "paused", "completed", "archived"] as const;
export const ZSessionStatus = z.enum(SESSION_STATUSES, {
  error: `must be one of: ${SESSION_STATUSES.join(", ")}`,
});
export type TSessionStatus = z.infer<typeof ZSessionStatus>;

/**
 * The allowed status changes. Only an active session takes new messages; archived sessions
 * are put away and come back through "active" (restore). Setting the current status again is
 * allowed and changes nothing.
 */
export const SESSION_STATUS_TRANSITIONS: Readonly<
  Record<TSessionStatus, readonly TSessionStatus[]>
> = {
  active: ["paused", "completed", "archived"],
  paused: ["active", "completed", "archived"],
  completed: ["active", "archived"],
  archived: ["active"],
};

export function canChangeSessionStatus(from: TSessionStatus, to: TSessionStatus): boolean {
  return from === to || SESSION_STATUS_TRANSITIONS[from].includes(to);
}

/**
 * What is happening in a session, derived on every read from its runs (decision 032); the
 * stored `status` above stays the user's choice. A session is `active` while a run works in
 * it, and also for a while after anything else happened in it (created, a run that failed or
 * was stopped); `completed` once its last run completed and nothing runs; `idle` when its
 * last run did not complete (or it never had one) and nothing happened for
 * SESSION_IDLE_AFTER_MS — the spec's 30 minutes of an analytics session.
 */
export const SESSION_ACTIVITIES = ["active", "completed", "idle"] as const;
export const ZSessionActivity = z.enum(SESSION_ACTIVITIES);
export type TSessionActivity = z.infer<typeof ZSessionActivity>;

export const SESSION_IDLE_AFTER_MS = 30 * 60_000;

export interface SessionRunFacts {
  /** A run of the session is queued or working now. */
  running: boolean;
  /** How the newest run ended; null when it runs or the session never had one. */
  lastRunEnded: "completed" | "failed" | "cancelled" | null;
  /** The newest of: the session's creation or change, its newest run's start and end. */
  lastActivityAt: number;
}

export function sessionActivity(facts: SessionRunFacts, now: number): TSessionActivity {
  if (facts.running) return "active";
  if (facts.lastRunEnded === "completed") return "completed";
  return now - facts.lastActivityAt >= SESSION_IDLE_AFTER_MS ? "idle" : "active";
}

/** What a session's badge says: the user's pause, archive or completion, else its activity. */
export type TShownSessionStatus = TSessionStatus | TSessionActivity;
export function shownSessionStatus(session: {
  status: TSessionStatus;
  activity: TSessionActivity;
}): TShownSessionStatus {
  return session.status === "active" ? session.activity : session.status;
}

/** What a session's badge says, on screen and in its exports (decision 057). */
export const SESSION_STATUS_LABELS: Record<TShownSessionStatus, string> = {
  active: "Active",
  idle: "Idle",
  paused: "Paused",
  completed: "Completed",
  archived: "Archived",
};

/** The coordinator a session gets when the request names none. */
export const DEFAULT_COORDINATOR_MODEL = "coreason";

export const SESSION_TITLE_MAX = 120;
export const SESSION_DESCRIPTION_MAX = 2000;
export const SESSION_BUDGET_MAX = 1_000_000;

export const AGENT_INSTRUCTIONS_MAX = 2000;

/**
 * One role's choice: whether it works (manual selection), on which model (null: default),
 * and the user's standing instructions for it (saved setups, decision 042), which go into every
 * call of that role as the user's own words ("" for none).
 */
export const ZAgentPreference = z.object({
  enabled: z.boolean().default(true),
  model: z.string().trim().min(1).max(100).nullable().default(null),
  instructions: z.string().trim().max(AGENT_INSTRUCTIONS_MAX).default(""),
});
export type TAgentPreference = z.infer<typeof ZAgentPreference>;

/** Per role; a role left out is off in manual selection and on its default model. */
export const ZAgentPreferences = z.partialRecord(ZAgentRoleId, ZAgentPreference);
export type TAgentPreferences = z.infer<typeof ZAgentPreferences>;

// At least one hundredth: a smaller positive number passes "two decimal places" as 0.
const ZCredits = ZCreditAmount.min(0.01, { error: "must be at least 0.01 credits" }).max(
  SESSION_BUDGET_MAX,
);

export const ZSession = z.object({
  id: z.string(),
  /** The workspace it belongs to (decision 040); a personal one has its user's id. */
  workspace_id: z.string(),
  title: z.string(),
  description: z.string(),
  coordinator_model: z.string(),
  manual_agent_selection: z.boolean(),
  agent_preferences: ZAgentPreferences.nullable(),
  status: ZSessionStatus,
  /** A cap on what the session's runs may spend; null means no cap. */
  budget_credits: z.number().nullable(),
  spent_credits: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  activity: ZSessionActivity.describe(
    "Derived: active (a run works, or something happened lately), completed (its last run completed), idle (30 minutes without anything and no completed run)",
  ),
  last_activity_at: z.string().describe("The newest of its creation, change, run start or end"),
  /** Which tools each role may use and when calls wait for approval (decision 058). */
  tools: ZSessionToolSettings.default(defaultSessionTools),
  /** "Review the plan first" (decision 069): runs wait in `planned` until a person starts them. */
  review_plan: z.boolean().default(false),
  imported_from_export_at: z
    .string()
    .optional()
    .describe("Only on an imported copy: when the export it came from was made"),
});
export type TSession = z.infer<typeof ZSession>;

export const ZCreateSessionRequest = z.object({
  title: z.string().trim().min(1, "is required").max(SESSION_TITLE_MAX),
  description: z.string().trim().max(SESSION_DESCRIPTION_MAX).default(""),
  coordinator_model: z.string().trim().min(1).max(100).default(DEFAULT_COORDINATOR_MODEL),
  manual_agent_selection: z.boolean().default(false),
  agent_preferences: ZAgentPreferences.nullable().default(null),
  budget_credits: ZCredits.nullable().default(null),
  workspace_id: ZWorkspaceScope.shape.workspace_id,
  /** Absent: the defaults (ask for risky calls; read-only built-ins for every role). */
  tools: ZSessionToolSettings.optional(),
  /** "Review the plan first" (decision 069); off by default. */
  review_plan: z.boolean().default(false),
});
export type TCreateSessionRequest = z.input<typeof ZCreateSessionRequest>;

/** PATCH: rename, describe, re-budget or re-staff; fields left out stay as they are. */
export const ZUpdateSessionRequest = z
  .object({
    title: z.string().trim().min(1, "is required").max(SESSION_TITLE_MAX),
    description: z.string().trim().max(SESSION_DESCRIPTION_MAX),
    coordinator_model: z.string().trim().min(1).max(100),
    manual_agent_selection: z.boolean(),
    agent_preferences: ZAgentPreferences.nullable(),
    budget_credits: ZCredits.nullable(),
    tools: ZSessionToolSettings,
    review_plan: z.boolean(),
  })
  .partial();
export type TUpdateSessionRequest = z.input<typeof ZUpdateSessionRequest>;

export const ZUpdateSessionStatusRequest = z.object({ status: ZSessionStatus });
export type TUpdateSessionStatusRequest = z.infer<typeof ZUpdateSessionStatusRequest>;

export const ZSessionResponse = z.object({ session: ZSession });
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

export const ZSessionsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(SESSION_TITLE_MAX).optional().describe("Part of the title"),
  workspace_id: ZWorkspaceScope.shape.workspace_id,
});
export type TSessionsQuery = z.infer<typeof ZSessionsQuery>;

export const ZSessionsResponse = z.object({
  sessions: z.array(ZSession),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TSessionsResponse = z.infer<typeof ZSessionsResponse>;

/** The data model "Chat message": the user's messages and the coordinator's final answers. */
export const ZChatMessage = z.object({
  id: z.string(),
  session_id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  /** The run the message started (user) or ended (assistant). */
  run_id: z.string().nullable(),
  created_at: z.string(),
  /** A user message: the run it was sent after (null: the first turn; decision 070). */
  parent_run_id: z.string().nullable().optional(),
  /** The latest time it was put on screen among its versions (decision 070). */
  shown_at: z.string().optional(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZDeleteSessionResponse = z.object({ deleted: z.literal(true) });

export const SESSION_ERROR_CODES = {
  unknownModel: "unknown_model",
  modelNotSuitable: "model_not_suitable",
  noAgentsSelected: "no_agents_selected",
  invalidTransition: "invalid_status_transition",
  sessionNotActive: "session_not_active",
} as const;

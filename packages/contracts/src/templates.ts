import { z } from "zod";
import type { TSubscriptionTier } from "./plans";
import { SESSION_TITLE_MAX, ZSession, ZUpdateSessionRequest } from "./sessions";
import { ZWorkspaceScope } from "./workspaces";

/**
 * Saved setups (decision 042, "workspace saving"): a session's setup kept under a name, to start
 * new sessions from. A template belongs to a workspace; its creator sees it, and the whole
 * workspace sees it once it is shared.
 */

export const TEMPLATE_NAME_MAX = 80;
export const TEMPLATE_DESCRIPTION_MAX = 500;
/** The most documents a template remembers (a session rarely has more attached). */
export const TEMPLATE_DOCUMENTS_MAX = 100;

/** The pricing page's Pro+ "Workspace saving"; Enterprise has everything in Pro+. */
export const TEMPLATE_TIERS: readonly TSubscriptionTier[] = ["pro+", "enterprise"];
export function hasTemplateAccess(tier: TSubscriptionTier): boolean {
  return TEMPLATE_TIERS.includes(tier);
}

export const TEMPLATE_ERROR_CODES = {
  locked: "templates_locked",
  workspaceMismatch: "template_workspace_mismatch",
} as const;

export const TEMPLATE_MESSAGES = {
  locked:
    "Templates are part of the Pro+ and Enterprise plans. Upgrade your plan to save a session's setup and start new sessions from it.",
  notFound: "This template does not exist.",
  workspaceMismatch: "A template saved from a session belongs to that session's workspace.",
  notYours: "Only the template's creator or a workspace admin can change it.",
} as const;

// The session's own rules for each field, so a template holds exactly what a session can.
const session = ZUpdateSessionRequest.shape;

/** What a template keeps: the coordinator, the team (roles, models, instructions), budget, documents. */
export const ZTemplateSetup = z.object({
  coordinator_model: session.coordinator_model.unwrap(),
  manual_agent_selection: session.manual_agent_selection.unwrap().default(false),
  agent_preferences: session.agent_preferences.unwrap().default(null),
  budget_credits: session.budget_credits.unwrap().default(null),
  /** The tool settings (decision 058); null: the defaults. */
  tools: session.tools.unwrap().nullable().default(null),
  /** "Review the plan first" for sessions started from it (decision 069). */
  review_plan: session.review_plan.unwrap().optional(),
  /** Documents to attach to each new session; those deleted since are left out. */
  document_ids: z.array(z.uuid()).max(TEMPLATE_DOCUMENTS_MAX).default([]),
});
export type TTemplateSetup = z.infer<typeof ZTemplateSetup>;

export const ZTemplate = z.object({
  id: z.uuid(),
  workspace_id: z.uuid(),
  name: z.string(),
  description: z.string(),
  /** Seen by the whole workspace; otherwise by its creator only. */
  shared: z.boolean(),
  /** Null once the creator's account is gone. */
  created_by_name: z.string().nullable(),
  is_mine: z.boolean(),
  /** The caller may rename, share, edit or delete it: its creator (member+) or an admin. */
  can_edit: z.boolean(),
  setup: ZTemplateSetup,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TTemplate = z.infer<typeof ZTemplate>;

const ZTemplateName = z.string().trim().min(1, "is required").max(TEMPLATE_NAME_MAX);
const ZTemplateDescription = z.string().trim().max(TEMPLATE_DESCRIPTION_MAX);

export const ZTemplateListQuery = ZWorkspaceScope;
export const ZTemplateList = z.object({ templates: z.array(ZTemplate) });
export type TTemplateList = z.infer<typeof ZTemplateList>;

export const ZTemplateParams = z.object({ id: z.uuid() });

/**
 * Save a setup: from a session (its setup and attached documents; the template goes to the
 * session's workspace) or given outright (in `workspace_id`, the personal one if left out).
 */
export const ZCreateTemplateRequest = z
  .object({
    workspace_id: ZWorkspaceScope.shape.workspace_id,
    name: ZTemplateName,
    description: ZTemplateDescription.default(""),
    shared: z.boolean().default(false),
    from_session_id: z.uuid().optional(),
    setup: ZTemplateSetup.optional(),
  })
  .refine((body) => (body.from_session_id === undefined) !== (body.setup === undefined), {
    message: "give either from_session_id or setup",
    path: ["setup"],
  });
export type TCreateTemplateRequest = z.input<typeof ZCreateTemplateRequest>;

/** PATCH: rename, describe, share or unshare, replace the setup; fields left out stay. */
export const ZUpdateTemplateRequest = z
  .object({
    name: ZTemplateName,
    description: ZTemplateDescription,
    shared: z.boolean(),
    setup: ZTemplateSetup,
  })
  .partial();
export type TUpdateTemplateRequest = z.input<typeof ZUpdateTemplateRequest>;

export const ZTemplateResponse = z.object({ template: ZTemplate });
export type TTemplateResponse = z.infer<typeof ZTemplateResponse>;

/** A new session in the template's workspace with its setup and (still present) documents. */
export const ZStartFromTemplateRequest = z.object({
  title: z.string().trim().min(1, "is required").max(SESSION_TITLE_MAX),
});
export type TStartFromTemplateRequest = z.input<typeof ZStartFromTemplateRequest>;
export const ZStartFromTemplateResponse = z.object({
  session: ZSession,
  /** The template's documents attached to the new session (deleted ones are left out). */
  document_ids: z.array(z.uuid()),
});
export type TStartFromTemplateResponse = z.infer<typeof ZStartFromTemplateResponse>;

export const ZDeleteTemplateResponse = z.object({ deleted: z.literal(true) });

export const TEMPLATE_ROUTES = {
  list: "/api/templates",
  one: (id: string) => `/api/templates/${id}`,
  sessions: (id: string) => `/api/templates/${id}/sessions`,
} as const;

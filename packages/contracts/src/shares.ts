import { z } from "zod";
import { ZRun, type ZRunEvent, ZRunPlanView, ZRunStep, ZRunToolCall } from "./runs";
import { ZChatMessage } from "./sessions";

/**
 * Share links (decision 045): a read-only link to a session or to one of its runs. Unguessable,
 * revocable, with an optional expiry; the public view never shows costs or who asked unless
 * the owner chose to (and then display names only, never email addresses).
 */

export const SHARE_ROUTES = {
  sessionShares: "/api/sessions/:id/shares",
  share: "/api/shares/:id",
  publicView: "/api/share/:token",
  publicEvents: "/api/share/:token/events",
  /** An image a model made in the shared session (decision 064). */
  publicImage: "/api/share/:token/images/:id",
  /** Every link of the workspace's sessions, for its owners and admins (decision 051). */
  workspaceShares: "/api/workspaces/:id/shares",
} as const;

/** Where the web app shows a shared session or run. */
export const sharePagePath = (token: string) => `/share/${token}`;

/** The expiries the Share dialog offers (days; null: never). */
export const SHARE_EXPIRY_CHOICES = [null, 1, 7, 30] as const;
export const SHARE_EXPIRY_DAYS_MAX = 365;

/** 32 random bytes, base64url: 43 characters. */
export const SHARE_TOKEN_LENGTH = 43;
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Public views per minute and address: enough for a reader, too few to walk tokens. */
export const SHARE_VIEWS_PER_MINUTE = 120;

export const ZCreateShare = z.object({
  /** One run of the session; left out or null: the whole session. */
  run_id: z.uuid().nullable().optional(),
  /** Days until the link stops working; null or left out: never. */
  expires_in_days: z.number().int().min(1).max(SHARE_EXPIRY_DAYS_MAX).nullable().optional(),
  show_costs: z.boolean().default(false),
  show_names: z.boolean().default(false),
  /** Viewers see runs stream in while they happen (server-sent events). */
  live: z.boolean().default(false),
});
export type TCreateShare = z.input<typeof ZCreateShare>;

/**
 * creator_left: its creator is no longer in the session's workspace (or deleted their
 * account), so the link does not open; it works again if they are added back.
 */
export const SHARE_STATUSES = ["active", "expired", "revoked", "creator_left"] as const;
export type TShareStatus = (typeof SHARE_STATUSES)[number];

export const ZShareLink = z.object({
  id: z.uuid(),
  session_id: z.uuid(),
  run_id: z.uuid().nullable(),
  /** The link's secret; the list shows it again so owners can copy the link later. */
  token: z.string(),
  url: z.string(),
  show_costs: z.boolean(),
  show_names: z.boolean(),
  live: z.boolean(),
  status: z.enum(SHARE_STATUSES),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  /** Who made it (display name), for the list in a team workspace. */
  created_by: z.string().nullable(),
  view_count: z.number().int(),
  last_viewed_at: z.string().nullable(),
});
export type TShareLink = z.infer<typeof ZShareLink>;

export const ZShareCreated = z.object({ share: ZShareLink, url: z.string() });
export type TShareCreated = z.infer<typeof ZShareCreated>;
export const ZShareList = z.object({ shares: z.array(ZShareLink) });
export type TShareList = z.infer<typeof ZShareList>;
export const ZShareOne = z.object({ share: ZShareLink });

/** A link in the workspace's list: which session it opens, by title. */
export const ZWorkspaceShareLink = ZShareLink.extend({ session_title: z.string() });
export type TWorkspaceShareLink = z.infer<typeof ZWorkspaceShareLink>;
export const ZWorkspaceShareList = z.object({ shares: z.array(ZWorkspaceShareLink) });
export type TWorkspaceShareList = z.infer<typeof ZWorkspaceShareList>;
export const ZWorkspaceSharesParams = z.object({ id: z.uuid() });

/**
 * Live streams open at once: per address (a reader has a few tabs) and per link (a link
 * posted somewhere busy); beyond, 429 (decision 051).
 */
export const SHARE_STREAMS_PER_ADDRESS = 8;
export const SHARE_STREAMS_PER_LINK = 100;
export const ZShareSessionParams = z.object({ id: z.uuid() });
export const ZShareParams = z.object({ id: z.uuid() });
export const ZShareTokenParams = z.object({ token: z.string().max(200) });
export const ZShareEventsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
});

// ---------------------------------------------------------------------------------------
// The public view. Cost figures are null unless the owner shared costs.
// ---------------------------------------------------------------------------------------

/** Field names that carry money, wherever they are in a run or an event. */
export const COST_FIELDS = [
  "credits",
  "total_credits",
  "run_credits",
  "session_spent_credits",
  "spent_credits",
  "budget_credits",
  "balance",
  "available",
] as const;
type CostField = (typeof COST_FIELDS)[number];

/** `T` with every cost field (at any depth) possibly null. */
export type WithHiddenCosts<T> = T extends readonly (infer E)[]
  ? WithHiddenCosts<E>[]
  : T extends object
    ? { [K in keyof T]: K extends CostField ? T[K] | null : WithHiddenCosts<T[K]> }
    : T;

const COST_SET: ReadonlySet<string> = new Set(COST_FIELDS);

/** An error (`code` + `message`) whose text tells amounts of credits (budget, balance). */
function isCostError(value: object): value is { code: string; message: string } {
  const { code, message } = value as { code?: unknown; message?: unknown };
  return typeof code === "string" && typeof message === "string" && /credit/i.test(message);
}

/**
 * A copy of `value` with every cost field set to null, and the text of errors that tell
 * amounts (a budget's "spent 1.20 of 2.00 credits", a balance) replaced: what a viewer gets
 * without costs.
 */
export function hideCosts<T>(value: T): WithHiddenCosts<T> {
  if (Array.isArray(value)) return value.map((v) => hideCosts(v)) as WithHiddenCosts<T>;
  if (value === null || typeof value !== "object") return value as WithHiddenCosts<T>;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = COST_SET.has(key) ? null : hideCosts(v);
  if (isCostError(value)) out.message = SHARE_MESSAGES.costErrorHidden;
  return out as WithHiddenCosts<T>;
}

const cost = z.number().nullable();

export const ZSharedStep = ZRunStep.extend({ credits: cost });
/**
 * A tool call as a link shows it (decision 076): the tool, its status, duration, size and
 * approval's answer; never what went in or came out (arguments null, output, sources, files
 * and error text empty, no approver's name or note: decision 058), cost null unless shared.
 */
export const ZSharedToolCall = ZRunToolCall.extend({ credits: cost });
export type TSharedToolCall = z.infer<typeof ZSharedToolCall>;
export const ZSharedRun = ZRun.omit({ memories: true }).extend({
  /** Without the approved memories used: those are the owner's private notes. */
  plan: ZRunPlanView.omit({ memories: true }).nullable(),
  total_credits: cost,
  steps: z.array(ZSharedStep),
  /** Its lanes' tool calls, in order, redacted (decision 076). */
  tool_calls: z.array(ZSharedToolCall),
  /** Who sent the message that started it (display name; only when names are shared). */
  asked_by: z.string().nullable(),
});
export type TSharedRun = z.infer<typeof ZSharedRun>;

export const ZSharedView = z.object({
  share: z.object({
    kind: z.enum(["session", "run"]),
    run_id: z.uuid().nullable(),
    show_costs: z.boolean(),
    show_names: z.boolean(),
    live: z.boolean(),
    expires_at: z.string().nullable(),
  }),
  session: z.object({
    title: z.string(),
    description: z.string(),
    created_at: z.string(),
    /** Display name of its creator; null unless names are shared. */
    created_by: z.string().nullable(),
    spent_credits: cost,
  }),
  messages: z.array(ZChatMessage),
  runs: z.array(ZSharedRun),
  /** The session's newest event number: a live view's stream starts after it. */
  last_seq: z.number().int(),
});
export type TSharedView = z.infer<typeof ZSharedView>;

/**
 * A run event as the live stream sends it (`data:` of an SSE message whose `id:` is its
 * seq): cost fields null unless costs are shared; `credits.changed` never (it carries the
 * paying account's balance).
 */
export type TSharedRunEvent = WithHiddenCosts<
  Exclude<z.infer<typeof ZRunEvent>, { type: "credits.changed" }>
>;

/**
 * The live stream's messages: `open` once it runs, `run` per event (TSharedRunEvent), `end`
 * once the link stops working (revoked, expired, its session deleted), then it closes.
 */
export const SHARE_STREAM_EVENTS = { open: "open", run: "run", end: "end" } as const;

export const SHARE_MESSAGES = {
  notFound: "This share link does not exist or no longer works.",
  runNotInSession: "This run is not in the session.",
  costErrorHidden:
    "The run stopped: its credits or the session's budget did not cover the next step.",
  tooManyStreamsFromAddress: (most: number) =>
    `At most ${most} live shared pages can be open from one address. Close one and try again.`,
  tooManyStreamsOnLink:
    "Too many people are watching this link live right now. Try again in a minute.",
} as const;

import { z } from "zod";
import { ZAgreement } from "./agreements";
import { ZSignInInfo, ZUserProfile } from "./auth";
import { ZLedgerEntry } from "./billing";
import { ZModelHealth, ZModelPrice } from "./models";

/** Admin-area calls (the roles: a separate admin audience with its own login). */

export const ZOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;

export const ZOutboxResponse = z.object({ messages: z.array(ZOutboxMessage) });
export type TOutboxResponse = z.infer<typeof ZOutboxResponse>;

/** The admin area's screens besides the overview: `/admin/:section` (docs/decisions/022). */
export const ADMIN_SECTIONS = [
  "users",
  "agreements",
  "models",
  "logs",
  "analytics",
  "outbox",
  "audit",
  "workspaces",
] as const;
export type TAdminSection = (typeof ADMIN_SECTIONS)[number];

/** Every admin list is paged the same way. */
const ZPage = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
};
const ZPageInfo = {
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
};

export const ADMIN_USER_SORTS = ["newest", "oldest", "email"] as const;

export const ZAdminUsersQuery = z.object({
  ...ZPage,
  q: z.string().trim().max(254).optional().describe("Part of an email address or name"),
  sort: z.enum(ADMIN_USER_SORTS).default("newest"),
});
export type TAdminUsersQuery = z.infer<typeof ZAdminUsersQuery>;

/** A user as the admin area sees them: the profile plus whether the account is disabled. */
export const ZAdminUser = ZUserProfile.extend({
  disabled_at: z.string().nullable().describe("When an admin disabled the account; null if active"),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;

export const ZAdminUsersResponse = z.object({ users: z.array(ZAdminUser), ...ZPageInfo });
export type TAdminUsersResponse = z.infer<typeof ZAdminUsersResponse>;

export const ZAdminUserDetail = z.object({
  user: ZAdminUser,
  /** Chat sessions the user owns. */
  sessions_count: z.number().int(),
  /** Active sign-ins, most recently used first. */
  sign_ins: z.array(ZSignInInfo),
  /** The newest ledger rows; the full ledger pages through /ledger. */
  ledger: z.array(ZLedgerEntry),
  ledger_total: z.number().int(),
});
export type TAdminUserDetail = z.infer<typeof ZAdminUserDetail>;

export const ZAdminSetDisabledRequest = z.object({
  disabled: z.boolean(),
  reason: z.string().trim().min(1).max(500).describe("Why; kept in the audit log"),
});
export type TAdminSetDisabledRequest = z.infer<typeof ZAdminSetDisabledRequest>;

export const ZAdminRevokeSignInsResponse = z.object({
  revoked: z.number().int().describe("How many sign-ins ended"),
});
export type TAdminRevokeSignInsResponse = z.infer<typeof ZAdminRevokeSignInsResponse>;

// ---------------------------------------------------------------------------------------
// Agreements
// ---------------------------------------------------------------------------------------

export const ZAdminAgreementVersion = ZAgreement.omit({ content: true }).extend({
  published_at: z.string(),
  current: z.boolean(),
  acceptances: z.number().int(),
  declines: z.number().int(),
});
export type TAdminAgreementVersion = z.infer<typeof ZAdminAgreementVersion>;

export const ZAdminAgreementsResponse = z.object({
  /** Newest first. */
  versions: z.array(ZAdminAgreementVersion),
  users_total: z.number().int(),
});
export type TAdminAgreementsResponse = z.infer<typeof ZAdminAgreementsResponse>;

export const ZAdminPendingQuery = z.object({ ...ZPage });
export type TAdminPendingQuery = z.infer<typeof ZAdminPendingQuery>;

export const ZAdminPendingResponse = z.object({
  version: z.string(),
  /** Users who have neither accepted nor declined this version, newest accounts first. */
  users: z.array(ZAdminUser),
  ...ZPageInfo,
});
export type TAdminPendingResponse = z.infer<typeof ZAdminPendingResponse>;

// ---------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------

export const ZAdminModel = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["native", "external", "local"]),
  providers: z.array(z.string()),
  enabled: z.boolean(),
  /** The price in force (the override when there is one). */
  price: ZModelPrice,
  /** The catalogue's own price, before any override. */
  catalogue_price: ZModelPrice,
  price_overridden: z.boolean(),
  /** A role's default or CoChat's default: it cannot be disabled. */
  required: z.boolean(),
});
export type TAdminModel = z.infer<typeof ZAdminModel>;

export const ZAdminModelsResponse = z.object({
  models: z.array(ZAdminModel),
  providers: z.array(ZModelHealth),
});
export type TAdminModelsResponse = z.infer<typeof ZAdminModelsResponse>;

export const ZAdminModelParams = z.object({ id: z.string().min(1).max(64) });

export const ZAdminModelOverrideRequest = z.object({
  enabled: z.boolean(),
  /** null goes back to the catalogue's price. */
  price: ZModelPrice.nullable(),
  reason: z.string().trim().min(1).max(500).describe("Why; kept in the audit log"),
});
export type TAdminModelOverrideRequest = z.infer<typeof ZAdminModelOverrideRequest>;

// ---------------------------------------------------------------------------------------
// Overview
// ---------------------------------------------------------------------------------------

export const ZAdminOverviewQuery = z.object({
  days: z.coerce.number().int().min(7).max(90).default(30),
});
export type TAdminOverviewQuery = z.infer<typeof ZAdminOverviewQuery>;

export const ZAdminOverviewDay = z.object({
  date: z.string().describe("YYYY-MM-DD (UTC)"),
  signups: z.number().int(),
  /** Users who spent credits that day (a run step or a CoChat turn). */
  active_users: z.number().int(),
  runs: z.number().int(),
  cochat_messages: z.number().int(),
  /** Completed checkouts, in cents of USD. */
  revenue_cents: z.number().int(),
  credits_granted: z.number(),
  credits_spent: z.number(),
});
export type TAdminOverviewDay = z.infer<typeof ZAdminOverviewDay>;

/** One model's calls as this server instance saw them since it started. */
export const ZAdminModelStats = z.object({
  model_id: z.string(),
  calls: z.number().int(),
  errors: z.number().int(),
  /** Over the last 200 successful calls, in milliseconds. */
  latency_ms_p50: z.number().nullable(),
  latency_ms_p95: z.number().nullable(),
  last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
});
export type TAdminModelStats = z.infer<typeof ZAdminModelStats>;

export const ZAdminOverview = z.object({
  days: z.array(ZAdminOverviewDay),
  totals: z.object({
    users: z.number().int(),
    disabled_users: z.number().int(),
  }),
  providers: z.array(ZModelHealth),
  models: z.array(ZAdminModelStats),
  analytics_dropped: z
    .object({
      items: z.number().int(),
      bytes: z.number().int(),
      addresses: z.number().int(),
    })
    .describe(
      "Anonymous analytics dropped in the window: over the per-address daily byte cap (TELEMETRY_ANONYMOUS_BYTES_PER_DAY)",
    ),
});
export type TAdminOverview = z.infer<typeof ZAdminOverview>;

// ---------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------

export const ADMIN_ACTIONS = [
  "credits.adjust",
  "user.tier",
  "user.disable",
  "user.enable",
  "user.revoke_sign_ins",
  "agreement.publish",
  "model.override",
  "account.deleted",
  "user.email_verified",
  "user.verification_sent",
  "user.password_reset_sent",
] as const;
export type TAdminAction = (typeof ADMIN_ACTIONS)[number];

export const ZAdminAuditEntry = z.object({
  id: z.string(),
  admin_id: z.string(),
  admin_email: z.string(),
  action: z.enum(ADMIN_ACTIONS),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
});
export type TAdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;

export const ZAdminAuditQuery = z.object({
  ...ZPage,
  action: z.enum(ADMIN_ACTIONS).optional(),
  targetId: z.string().max(128).optional(),
  sort: z.enum(["newest", "oldest"]).default("newest"),
});
export type TAdminAuditQuery = z.infer<typeof ZAdminAuditQuery>;

export const ZAdminAuditResponse = z.object({ entries: z.array(ZAdminAuditEntry), ...ZPageInfo });
export type TAdminAuditResponse = z.infer<typeof ZAdminAuditResponse>;

/** The answer to a sign-in into an account an administrator disabled (after the password). */
export const ACCOUNT_DISABLED = {
  code: "account_disabled",
  message: "This account has been disabled. Contact support if you think this is a mistake.",
} as const;

// ---------------------------------------------------------------------------------------
// Account support and workspaces (decision 056)
// ---------------------------------------------------------------------------------------

/** What an account-support action did, in a sentence the admin screen shows. */
export const ZAdminUserActionResponse = z.object({ success: z.literal(true), message: z.string() });
export type TAdminUserActionResponse = z.infer<typeof ZAdminUserActionResponse>;

/** An account-support action that needs a reason (marking verified, deleting): kept in the audit log. */
export const ZAdminReasonRequest = z.object({
  reason: z.string().trim().min(1).max(500).describe("Why; kept in the audit log"),
});
export type TAdminReasonRequest = z.infer<typeof ZAdminReasonRequest>;

export const ADMIN_USER_MESSAGES = {
  verificationSent: (email: string) => `A new verification link was sent to ${email}.`,
  alreadyVerified: "This email address is already verified.",
  markedVerified: (email: string) => `${email} is now verified.`,
  resetSent: (email: string) => `A password reset link was sent to ${email}.`,
  deleted: (email: string) => `The account of ${email} and its data were deleted.`,
  cannotDeleteSelf: "You cannot delete your own account from the admin area.",
} as const;

export const ZAdminWorkspacesQuery = z.object({
  ...ZPage,
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
  q: z.string().trim().max(80).optional().describe("Part of a team workspace's name"),
});
export type TAdminWorkspacesQuery = z.infer<typeof ZAdminWorkspacesQuery>;

export const ZAdminWorkspaceMember = z.object({
  user_id: z.string(),
  email: z.string(),
  display_name: z.string(),
  role: z.enum(["owner", "admin", "member", "viewer"]),
  monthly_cap_credits: z.number().nullable(),
  spent_credits: z.number().describe("Spent from the pool this month (UTC)"),
  calls: z.number().int(),
});
export type TAdminWorkspaceMember = z.infer<typeof ZAdminWorkspaceMember>;

/** A team workspace as the admin area sees it: members, pool, caps and this month's spend. */
export const ZAdminWorkspace = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  member_count: z.number().int(),
  pool_credits: z.number().describe("The pool's balance"),
  month: z.string().describe("YYYY-MM (UTC) of the spend figures"),
  spent_credits: z.number().describe("Spent from the pool this month, every member together"),
  members: z.array(ZAdminWorkspaceMember),
});
export type TAdminWorkspace = z.infer<typeof ZAdminWorkspace>;

export const ZAdminWorkspacesResponse = z.object({
  workspaces: z.array(ZAdminWorkspace),
  ...ZPageInfo,
});
export type TAdminWorkspacesResponse = z.infer<typeof ZAdminWorkspacesResponse>;

import { z } from "zod";
import { ZCreditAmount } from "./money";
import { PLANS, SUBSCRIPTION_TIERS, type TPlan, type TSubscriptionTier } from "./plans";

/**
 * Credits, tiers, packs and payments (the data model, the UI states, the API and the product limits). Credits are kept to hundredths
 * (model prices produce fractions); every amount on the wire is a number of credits.
 */

export const BILLING_PERIODS = ["monthly", "yearly"] as const;
export type TBillingPeriod = (typeof BILLING_PERIODS)[number];

/** A yearly plan costs ten months (two months free) and grants twelve months of credits. */
export const YEARLY_PRICE_MONTHS = 10;
export const YEARLY_CREDIT_MONTHS = 12;

export type TPaidTier = Exclude<TSubscriptionTier, "free">;
export const PAID_TIERS = [
  "starter",
  "pro",
  "pro+",
  "enterprise",
] as const satisfies readonly TPaidTier[];

/** Higher rank, more entitlement: used to tell an upgrade from a downgrade. */
export const TIER_RANK: Record<TSubscriptionTier, number> = {
  free: 0,
  starter: 1,
  pro: 2,
  "pro+": 3,
  enterprise: 4,
};

export function findPlan(tier: TSubscriptionTier): TPlan | undefined {
  return PLANS.find((plan) => plan.tier === tier);
}

/** The plan's price in US cents for one billing period. */
export function planPriceCents(plan: TPlan, period: TBillingPeriod): number {
  const monthly = plan.priceCentsMonthly;
  return period === "yearly" ? monthly * YEARLY_PRICE_MONTHS : monthly;
}

/** The credits one paid invoice of the plan grants. */
export function planPeriodCredits(plan: TPlan, period: TBillingPeriod): number {
  return period === "yearly" ? plan.monthlyCredits * YEARLY_CREDIT_MONTHS : plan.monthlyCredits;
}

export interface TCreditPack {
  id: string;
  name: string;
  credits: number;
  /** US cents: 499 is $4.99. */
  priceCents: number;
}

/** Packs cost more per credit than any plan, so a subscription stays the better deal. */
export const CREDIT_PACKS = [
  { id: "pack_100", name: "100 credits", credits: 100, priceCents: 499 },
  { id: "pack_500", name: "500 credits", credits: 500, priceCents: 1999 },
  { id: "pack_1000", name: "1,000 credits", credits: 1000, priceCents: 3499 },
  { id: "pack_5000", name: "5,000 credits", credits: 5000, priceCents: 14999 },
] as const satisfies readonly TCreditPack[];
export const CREDIT_PACK_IDS = CREDIT_PACKS.map((pack) => pack.id) as [
  (typeof CREDIT_PACKS)[number]["id"],
  ...(typeof CREDIT_PACKS)[number]["id"][],
];
export type TCreditPackId = (typeof CREDIT_PACK_IDS)[number];

export function findCreditPack(id: string): TCreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.id === id);
}

/** Why a ledger row exists; with its reference it is unique, so nothing is applied twice. */
export const LEDGER_REASONS = [
  "signup_grant",
  "subscription_grant",
  "credit_purchase",
  "usage",
  "admin_adjustment",
  "opening_balance",
] as const;
export type TLedgerReason = (typeof LEDGER_REASONS)[number];

export const BILLING_ERROR_CODES = {
  unknownCheckout: "unknown_checkout",
  paymentsUnavailable: "payments_unavailable",
  invalidSignature: "invalid_signature",
  crossOrigin: "cross_origin",
} as const;

export const INSUFFICIENT_CREDITS_MESSAGE =
  "You do not have enough credits for this. Add credits or upgrade your plan to continue.";

// ---------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------

export const ZCreateCheckoutSessionRequest = z.object({
  tier: z.enum(PAID_TIERS, { error: "Choose one of: starter, pro, pro+, enterprise." }),
  billingPeriod: z.enum(BILLING_PERIODS).default("monthly"),
  workspace_id: z
    .uuid()
    .optional()
    .describe("Subscriptions are personal: a team workspace here is refused (400)"),
});
export type TCreateCheckoutSessionRequest = z.infer<typeof ZCreateCheckoutSessionRequest>;

export const ZCreateCheckoutSessionResponse = z.object({
  sessionId: z.string(),
  checkout_url: z.string().describe("Where the browser goes to pay (Stripe or the dev checkout)"),
});
export type TCreateCheckoutSessionResponse = z.infer<typeof ZCreateCheckoutSessionResponse>;

export const ZPurchaseCreditsRequest = z.object({
  packageId: z.enum(CREDIT_PACK_IDS, {
    error: `Choose one of: ${CREDIT_PACK_IDS.join(", ")}.`,
  }),
  workspace_id: z
    .uuid()
    .optional()
    .describe(
      "A team workspace whose pool gets the credits (owner/admin); the buyer's own if left out",
    ),
});
export type TPurchaseCreditsRequest = z.infer<typeof ZPurchaseCreditsRequest>;

export const ZPurchaseCreditsResponse = z.object({
  sessionId: z.string(),
  checkout_url: z.string(),
});
export type TPurchaseCreditsResponse = z.infer<typeof ZPurchaseCreditsResponse>;

export const ZPortalResponse = z.object({ url: z.string() });
export type TPortalResponse = z.infer<typeof ZPortalResponse>;

export const ZWebhookResponse = z.object({
  received: z.literal(true),
  duplicate: z.boolean().describe("true when this event id had been applied before"),
});
export type TWebhookResponse = z.infer<typeof ZWebhookResponse>;

/** The data model: all default 0; total_cost is the providers' list price in US dollars. */
export const ZUsageStats = z.object({
  total_requests: z.number(),
  total_tokens: z.number(),
  total_cost: z.number(),
  total_credits_used: z.number(),
});
export type TUsageStats = z.infer<typeof ZUsageStats>;

export const ZUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(30),
});
export type TUsageQuery = z.infer<typeof ZUsageQuery>;

export const ZUsageDay = z.object({
  date: z.string().describe("YYYY-MM-DD, UTC"),
  requests: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  credits: z.number(),
  cost: z.number(),
});
export type TUsageDay = z.infer<typeof ZUsageDay>;

export const ZUsageModel = z.object({
  model: z.string(),
  provider: z.string(),
  requests: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  credits: z.number(),
  cost: z.number(),
});
export type TUsageModel = z.infer<typeof ZUsageModel>;

export const ZUserUsage = z.object({
  from: z.string().describe("First day covered, YYYY-MM-DD (UTC)"),
  to: z.string().describe("Last day covered, YYYY-MM-DD (UTC)"),
  totals: ZUsageStats,
  days: z.array(ZUsageDay).describe("Every day of the range, oldest first, zeros included"),
  models: z.array(ZUsageModel).describe("Most credits first"),
});
export type TUserUsage = z.infer<typeof ZUserUsage>;

export const ZLedgerQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TLedgerQuery = z.infer<typeof ZLedgerQuery>;

export const ZLedgerEntry = z.object({
  id: z.string(),
  delta: z.number(),
  balance_after: z.number(),
  reason: z.enum(LEDGER_REASONS),
  description: z.string(),
  created_at: z.string(),
});
export type TLedgerEntry = z.infer<typeof ZLedgerEntry>;

export const ZLedgerPage = z.object({
  entries: z.array(ZLedgerEntry).describe("Newest first"),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TLedgerPage = z.infer<typeof ZLedgerPage>;

/**
 * The credit history of /billing (docs/decisions/032-money-shown-and-session-status.md): a
 * run's charged calls are one row, linked to its session; every other ledger entry (grants,
 * purchases, adjustments) is a row of its own. Pages count rows, not ledger entries.
 */
export const ZCreditHistoryCall = z.object({
  id: z.string().describe("The ledger entry's id"),
  delta: z.number(),
  balance_after: z.number(),
  model: z.string().describe("The catalogue id of the model the call used"),
  created_at: z.string(),
});
export type TCreditHistoryCall = z.infer<typeof ZCreditHistoryCall>;

export const ZCreditHistoryRun = z.object({
  kind: z.literal("run"),
  id: z.string().describe("run:<run id>"),
  run_id: z.string(),
  /** null when the session (and with it the run) was deleted. */
  session_id: z.string().nullable(),
  session_title: z.string().nullable(),
  delta: z.number().describe("What the run's calls cost together (negative)"),
  balance_after: z.number().describe("The balance after the run's last charged call"),
  created_at: z.string().describe("When the run's last charged call was booked"),
  calls: z.array(ZCreditHistoryCall).describe("Oldest first"),
});
export type TCreditHistoryRun = z.infer<typeof ZCreditHistoryRun>;

export const ZCreditHistoryEntry = ZLedgerEntry.extend({ kind: z.literal("entry") });
export type TCreditHistoryEntry = z.infer<typeof ZCreditHistoryEntry>;

export const ZCreditHistoryRow = z.discriminatedUnion("kind", [
  ZCreditHistoryRun,
  ZCreditHistoryEntry,
]);
export type TCreditHistoryRow = z.infer<typeof ZCreditHistoryRow>;

export const ZCreditHistoryPage = z.object({
  rows: z.array(ZCreditHistoryRow).describe("Newest first"),
  total: z.number().int().describe("Rows in all (a run counts once)"),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TCreditHistoryPage = z.infer<typeof ZCreditHistoryPage>;

/** What a checkout bought and whether its payment has been applied (the return toast). */
export const CHECKOUT_STATUSES = ["open", "completed", "canceled", "failed"] as const;
export const ZCheckoutOutcome = z.object({
  id: z.string(),
  kind: z.enum(["subscription", "credits"]),
  status: z.enum(CHECKOUT_STATUSES).describe("completed once the payment has been applied"),
  credits: z.number().describe("Credits the payment brings (per period for a plan)"),
  tier: z.enum(PAID_TIERS).nullable(),
  plan_name: z.string().nullable(),
  billing_period: z.enum(BILLING_PERIODS).nullable(),
  pack_name: z.string().nullable(),
  amount_usd: z.number(),
});
export type TCheckoutOutcome = z.infer<typeof ZCheckoutOutcome>;

export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "active",
  "trialing",
  "past_due",
  "unpaid",
  "paused",
  "canceled",
] as const;
export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const ZSubscriptionInfo = z.object({
  tier: z.enum(SUBSCRIPTION_TIERS),
  billing_period: z.enum(BILLING_PERIODS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
});
export type TSubscriptionInfo = z.infer<typeof ZSubscriptionInfo>;

export const ZPlanOffer = z.object({
  tier: z.enum(PAID_TIERS),
  name: z.string(),
  features: z.array(z.string()),
  badge: z.string().nullable(),
  cta: z.string(),
  available: z.boolean(),
  highlighted: z.boolean(),
  price_monthly_usd: z.number(),
  price_yearly_usd: z.number(),
  credits_monthly: z.number(),
  credits_yearly: z.number(),
  cochat_access: z.boolean(),
});
export type TPlanOffer = z.infer<typeof ZPlanOffer>;

export const ZCreditPackOffer = z.object({
  id: z.enum(CREDIT_PACK_IDS),
  name: z.string(),
  credits: z.number(),
  price_usd: z.number(),
});
export type TCreditPackOffer = z.infer<typeof ZCreditPackOffer>;

/** Everything the /billing screen needs in one call. */
export const ZBillingSummary = z.object({
  tier: z.enum(SUBSCRIPTION_TIERS),
  tier_label: z.string(),
  cochat_access: z.boolean(),
  balance: z.number().describe("credits_remaining: the ledger balance"),
  available: z.number().describe("balance minus credits held for calls in progress"),
  held: z.number(),
  subscription: ZSubscriptionInfo.nullable(),
  renews_at: z
    .string()
    .nullable()
    .describe("Next renewal; null without a subscription or when it ends at period end"),
  payments: z
    .enum(["stripe", "dev", "off"])
    .describe(
      "dev: the built-in test checkout, no real card; off: no payment provider, purchases refused",
    ),
  default_billing_period: z.enum(BILLING_PERIODS),
  plans: z.array(ZPlanOffer),
  packs: z.array(ZCreditPackOffer),
});
export type TBillingSummary = z.infer<typeof ZBillingSummary>;

/** Realtime `credits.changed`, sent to every socket of the user after each change. */
export const ZCreditsChanged = z.object({
  balance: z.number(),
  available: z.number(),
  delta: z.number().describe("Change of the balance; 0 when only a hold opened or closed"),
  reason: z.string(),
  workspace_id: z
    .uuid()
    .optional()
    .describe("Set when the account is a team workspace's pool; absent for the user's own"),
});
export type TCreditsChanged = z.infer<typeof ZCreditsChanged>;

// ---------------------------------------------------------------------------------------
// Admin
// ---------------------------------------------------------------------------------------

export const ZAdminCreditAdjustmentRequest = z.object({
  delta: ZCreditAmount.refine((v) => Math.abs(v) >= 0.01, {
    error: "Give a non-zero amount (at least 0.01).",
  }).refine((v) => Math.abs(v) <= 10_000_000, { error: "At most 10,000,000 credits at a time." }),
  reason: z.string().trim().min(1).max(500).describe("Why; shown in the user's ledger"),
  idempotencyKey: z
    .string()
    .min(8)
    .max(200)
    .optional()
    .describe("The same key never adjusts twice (a retried request is safe)"),
});
export type TAdminCreditAdjustmentRequest = z.infer<typeof ZAdminCreditAdjustmentRequest>;

export const ZAdminCreditAdjustmentResponse = z.object({
  balance: z.number(),
  available: z.number(),
  applied: z.boolean().describe("false when the idempotency key had been used before"),
});
export type TAdminCreditAdjustmentResponse = z.infer<typeof ZAdminCreditAdjustmentResponse>;

export const ZAdminSetTierRequest = z.object({ tier: z.enum(SUBSCRIPTION_TIERS) });
export type TAdminSetTierRequest = z.infer<typeof ZAdminSetTierRequest>;

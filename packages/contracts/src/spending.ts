import { z } from "zod";
import { ZCreditAmount } from "./money";
import { ZUsageMonth } from "./workspace-credits";

/**
 * What limits a call's spending, how a refusal and a call stopped at a limit say which one
 * bit, the personal monthly spending limit, the cost estimate of a run about to start and the
 * markers of simulated (free) answers (docs/decisions/053-holds-that-grow.md).
 */

/**
 * The limits a call is held against. `balance`: the payer's own credits (a personal
 * session); `workspace_pool`: a team workspace's pooled credits; `member_cap`: the member's
 * monthly cap in that workspace; `session_budget`: the session's credit budget;
 * `personal_limit`: the user's own monthly spending limit across every wallet (Settings).
 */
export const CREDIT_LIMIT_KINDS = [
  "balance",
  "workspace_pool",
  "member_cap",
  "session_budget",
  "personal_limit",
] as const;
export const ZCreditLimitKind = z.enum(CREDIT_LIMIT_KINDS);
export type TCreditLimitKind = z.infer<typeof ZCreditLimitKind>;

export const SPENDING_ERROR_CODES = {
  /** The user's personal monthly spending limit cannot cover the call. */
  personalLimitReached: "personal_limit_reached",
  /** A call's text stopped where its hold could not grow (a step's `error.code`). */
  stoppedAtLimit: "stopped_at_limit",
} as const;

/**
 * `details` of every 402 that refuses spending (`insufficient_credits`, `member_cap_reached`,
 * `budget_exceeded`, `personal_limit_reached`), and of a run's failure for the same reason:
 * which limit, what is left of it and what the smallest step needs. The web picks its action
 * from `limit` (add credits, ask the workspace owner, raise the budget, raise the limit).
 * Older fields a refusal carried before (`monthly_cap`, `used`, `budget`, `spent`) stay.
 */
export const ZCreditRefusal = z.object({
  limit: ZCreditLimitKind,
  /** Credits (decimal) left under that limit now. */
  available: z.number(),
  /** Credits (decimal) the smallest step (its input and a minimal answer) needs. */
  required: z.number(),
  /** A team workspace's pool (absent for a personal balance). */
  workspace_id: z.string().optional(),
});
export type TCreditRefusal = z.infer<typeof ZCreditRefusal>;

const twoPlaces = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const amount = (credits: number) => twoPlaces.format(credits);

/** What a refusal says, per limit: the limit, what is left of it, what a minimal step needs. */
export function creditRefusalMessage(
  limit: TCreditLimitKind,
  available: number,
  required: number,
): string {
  const needs = `the smallest step needs ${amount(required)}`;
  switch (limit) {
    case "balance":
      return `You have ${amount(available)} credits available and ${needs}. Add credits to continue.`;
    case "workspace_pool":
      return `This workspace's pool has ${amount(available)} credits available and ${needs}. Ask the workspace owner to add credits.`;
    case "member_cap":
      return `Your monthly cap in this workspace leaves ${amount(available)} credits and ${needs}. Ask the workspace owner to raise your cap.`;
    case "session_budget":
      return `This session's budget leaves ${amount(available)} credits and ${needs}. Raise the session's budget to continue.`;
    case "personal_limit":
      return `Your personal monthly spending limit leaves ${amount(available)} credits and ${needs}. Raise your limit in Settings to continue.`;
  }
}

/**
 * A call whose hold could not grow stops there: its text is kept and charged for what was
 * produced, and its step says which limit stopped it (`error.code` `stopped_at_limit`).
 */
export const CREDIT_LIMIT_STOP_MESSAGES: Record<TCreditLimitKind, string> = {
  balance: "Stopped at your credit limit: your balance has no credits left for more.",
  workspace_pool: "Stopped at the workspace's credit limit: its pool has no credits left for more.",
  member_cap: "Stopped at your monthly cap in this workspace.",
  session_budget: "Stopped at this session's budget.",
  personal_limit: "Stopped at your personal monthly spending limit.",
};

// ---------------------------------------------------------------------------------------
// The personal monthly spending limit (Settings).
// ---------------------------------------------------------------------------------------

export const SPENDING_ROUTES = {
  limit: "/api/users/spending-limit",
  estimate: (sessionId: string) => `/api/sessions/${sessionId}/cost-estimate`,
} as const;

/** GET/PUT /api/users/spending-limit: the limit and what counts against it this month. */
export const ZSpendingLimit = z.object({
  /** null: no limit. */
  monthly_limit_credits: z.number().nullable(),
  /** The month (UTC) the figures below are for. */
  month: ZUsageMonth,
  /** Charged this month to any wallet for the user's calls (own balance and team pools). */
  spent_this_month: z.number(),
  /** Held for the user's calls still running. */
  held: z.number(),
  /** What the limit still allows this month; null without a limit. */
  remaining: z.number().nullable(),
});
export type TSpendingLimit = z.infer<typeof ZSpendingLimit>;

export const ZSetSpendingLimit = z.object({
  monthly_limit_credits: ZCreditAmount.refine((v) => v >= 0 && v <= 10_000_000, {
    error: "Give a limit between 0 and 10,000,000 credits, or null for no limit.",
  }).nullable(),
});
export type TSetSpendingLimit = z.infer<typeof ZSetSpendingLimit>;

// ---------------------------------------------------------------------------------------
// The cost estimate of a run about to start.
// ---------------------------------------------------------------------------------------

export const ZCostEstimateQuery = z.object({
  /** The message about to be sent (its length counts toward the input); absent: none yet. */
  message_chars: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Run again / Regenerate: the run whose message and plan are about to run again. */
  run_id: z.string().max(100).optional(),
});
export type TCostEstimateQuery = z.infer<typeof ZCostEstimateQuery>;

/** One kind of call the run is expected to make, with its range. */
export const ZCostEstimateCall = z.object({
  /** "image": a picture the Designer may draw with generate_image (decision 068). */
  kind: z.enum(["plan", "agent", "critic", "synthesis", "image"]),
  role: z.string().nullable(),
  model: z.string(),
  model_name: z.string(),
  simulated: z.boolean(),
  /** How many such calls the range counts. */
  count: z.number().int().min(0),
  low: z.number(),
  high: z.number(),
  /** `recent`: this deployment's recent median for the role and model; `catalogue`: prices. */
  basis: z.enum(["recent", "catalogue"]),
});
export type TCostEstimateCall = z.infer<typeof ZCostEstimateCall>;

/**
 * GET /api/sessions/{id}/cost-estimate: what the run about to start will probably cost, as a
 * range in credits. `free`: every call is answered by the built-in simulator (or the user's
 * own keys) and nothing is charged. `wallet` is the account that will be charged.
 */
export const ZCostEstimate = z.object({
  low: z.number(),
  high: z.number(),
  free: z.boolean(),
  /** Every model the run would use is simulated (its would-be cost is `low`–`high`). */
  simulated: z.boolean(),
  /** What `low`–`high` would be if the calls were charged (equal to them when charged). */
  would_be_low: z.number(),
  would_be_high: z.number(),
  wallet: z.object({
    kind: z.enum(["personal", "workspace"]),
    /** The team workspace whose pool pays; null: the user's own balance. */
    workspace_id: z.string().nullable(),
    available: z.number(),
  }),
  /** The tightest limit for this run and what it leaves (null: nothing limits it). */
  limit: z.object({ kind: ZCreditLimitKind, available: z.number() }).nullable(),
  /** Credits the smallest possible run needs (its planning call's input and a minimal answer). */
  minimum: z.number(),
  calls: z.array(ZCostEstimateCall),
});
export type TCostEstimate = z.infer<typeof ZCostEstimate>;

// ---------------------------------------------------------------------------------------
// Simulated answers: free unless the operator turns charging on (SIMULATOR_CHARGES=1).
// ---------------------------------------------------------------------------------------

/** The response header `/api/v1` sets on an answer from the built-in simulator. */
export const SIMULATED_HEADER = "x-cohort-simulated";
/** `system_fingerprint` of a simulated `/api/v1` completion. */
export const SIMULATOR_FINGERPRINT = "cohort-simulator";
/** The label the app shows beside a simulated call's would-be cost. */
export const SIMULATED_NOT_CHARGED = "Simulated — not charged";

/** Subscription tiers of the data model and the landing-page plans of the product limits. */
export const SUBSCRIPTION_TIERS = ["free", "starter", "pro", "pro+", "enterprise"] as const;
export type TSubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];

export const TIER_LABELS: Record<TSubscriptionTier, string> = {
  free: "Free",
  starter: "Starter",
  pro: "Pro",
  "pro+": "Pro+",
  enterprise: "Enterprise",
};

/** CoChat is unlocked for pro, pro+ and enterprise. */
export const COCHAT_TIERS: readonly TSubscriptionTier[] = ["pro", "pro+", "enterprise"];
export function hasCoChatAccess(tier: TSubscriptionTier): boolean {
  return COCHAT_TIERS.includes(tier);
}

export interface TPlan {
  tier: Exclude<TSubscriptionTier, "free">;
  name: string;
  /** US cents a month: 999 is $9.99 (money is integers; decision 073). */
  priceCentsMonthly: number;
  monthlyCredits: number;
  features: readonly string[];
  /** A badge on the plan card, e.g. "IN BETA". */
  badge?: string;
  /** The call-to-action text; "Coming Soon" renders a disabled button. */
  cta: string;
  available: boolean;
  highlighted?: boolean;
}

export const PLANS: readonly TPlan[] = [
  {
    tier: "starter",
    name: "Starter",
    priceCentsMonthly: 999,
    monthlyCredits: 200,
    features: ["200 credits per month", "Basic models", "Standard support"],
    badge: "IN BETA",
    cta: "Get Started",
    available: true,
  },
  {
    tier: "pro",
    name: "Pro",
    priceCentsMonthly: 1999,
    monthlyCredits: 1000,
    features: ["1,000 credits per month", "CoChat Unlimited", "All models", "Fast queue"],
    cta: "Coming Soon",
    available: false,
    highlighted: true,
  },
  {
    tier: "pro+",
    name: "Pro+",
    priceCentsMonthly: 4999,
    monthlyCredits: 3000,
    features: [
      "3,000 credits per month",
      "CoChat Unlimited",
      "Workspace saving",
      "Memory across sessions",
    ],
    cta: "Coming Soon",
    available: false,
  },
  {
    tier: "enterprise",
    name: "Enterprise",
    priceCentsMonthly: 19999,
    monthlyCredits: 20000,
    features: [
      "20,000 credits per month",
      "Everything in Pro+",
      "Team workspaces",
      "Priority support",
    ],
    cta: "Contact Sales",
    available: true,
  },
];

const usdFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const creditsFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A price in US dollars: "$1,999.90" (server pages and the public pages alike). */
/**
 * Plan features of the product limits that the product does not have yet. The plans keep the spec's
 * words; every place that lists them marks these as coming, so nobody pays for them thinking
 * they exist (decision 030).
 */
export const PLANNED_FEATURES: readonly string[] = ["Fast queue"];

export function isPlannedFeature(feature: string): boolean {
  return PLANNED_FEATURES.includes(feature);
}

export function formatUsd(amount: number): string {
  return usdFormat.format(amount);
}

/** A credit amount, grouped, at most two decimals: "20,000", "2.5" (the noun is the caller's). */
export function formatCredits(credits: number): string {
  return creditsFormat.format(credits);
}

import {
  type TBillingPeriod,
  type TBillingSummary,
  TIER_RANK,
  type TPlanOffer,
  type TSubscriptionInfo,
  type TSubscriptionTier,
} from "@cohort/contracts";

/**
 * What a plan card on /billing offers the signed-in user. Every paid plan can be bought here,
 * the ones the public pricing page still calls 'Coming Soon' included
 * (docs/decisions/008-billing-plans-in-the-app.md).
 */
export type PlanAction =
  | { kind: "current"; label: string }
  | { kind: "checkout" | "portal"; label: string; ariaLabel: string };

const LIVE_STATUSES: readonly TSubscriptionInfo["status"][] = ["active", "trialing", "past_due"];

export function hasLiveSubscription(subscription: TSubscriptionInfo | null): boolean {
  return subscription !== null && LIVE_STATUSES.includes(subscription.status);
}

export interface PlanContext {
  currentTier: TSubscriptionTier;
  subscription: TSubscriptionInfo | null;
  payments: TBillingSummary["payments"];
}

/**
 * A live Stripe subscription is changed in Stripe's customer portal (which prorates and
 * swaps the price); a second checkout would start a second subscription billed beside the
 * first. The dev checkout has no such portal page, and its "subscriptions" bill nobody, so
 * there a new checkout replaces the old one.
 */
export function planAction(
  plan: Pick<TPlanOffer, "tier" | "name">,
  { currentTier, subscription, payments }: PlanContext,
  period: TBillingPeriod,
): PlanAction {
  const live = hasLiveSubscription(subscription) ? subscription : null;
  const kind = live && payments === "stripe" ? "portal" : "checkout";
  if (plan.tier === currentTier) {
    if (!live || live.tier !== plan.tier || live.billing_period === period) {
      return { kind: "current", label: "Current plan" };
    }
    return {
      kind,
      label: `Switch to ${period} billing`,
      ariaLabel: `Switch the ${plan.name} plan to ${period} billing`,
    };
  }
  const verb = TIER_RANK[plan.tier] > TIER_RANK[currentTier] ? "Upgrade" : "Switch";
  return {
    kind,
    label: `${verb} to ${plan.name}`,
    ariaLabel: `${verb} to ${plan.name}, billed ${period}`,
  };
}

/** "2 months free" for a yearly price of ten months. */
export function yearlySavingMonths(
  plan: Pick<TPlanOffer, "price_monthly_usd" | "price_yearly_usd">,
) {
  if (plan.price_monthly_usd <= 0) return 0;
  return Math.round(12 - plan.price_yearly_usd / plan.price_monthly_usd);
}

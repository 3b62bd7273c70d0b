import {
  CREDIT_PACKS,
  DEFAULT_BILLING_PERIOD,
  hasCoChatAccess,
  PLANS,
  planPeriodCredits,
  planPriceCents,
  type TBillingSummary,
  TIER_LABELS,
  type TUserProfile,
} from "@cohort/contracts";
import { getBalance } from "../credits/get-balance";
import { findSubscription } from "./apply-subscription-state";
import type { BillingDeps } from "./billing-deps";

/** Everything the /billing screen shows, in one call. */
export async function getBillingSummary(
  deps: BillingDeps,
  user: TUserProfile,
): Promise<TBillingSummary> {
  const [balance, subscription] = await Promise.all([
    getBalance(deps.db, user.id),
    findSubscription(deps.db, { userId: user.id }),
  ]);
  const periodEnd = subscription?.current_period_end
    ? new Date(subscription.current_period_end).toISOString()
    : null;
  const renews =
    subscription &&
    ["active", "trialing", "past_due"].includes(subscription.status) &&
    !subscription.cancel_at_period_end;
  return {
    tier: user.subscription_tier,
    tier_label: TIER_LABELS[user.subscription_tier],
    cochat_access: hasCoChatAccess(user.subscription_tier),
    balance: balance.balance,
    available: balance.available,
    held: balance.held,
    subscription: subscription
      ? {
          tier: subscription.tier,
          billing_period: subscription.billing_period,
          status: subscription.status,
          current_period_end: periodEnd,
          cancel_at_period_end: subscription.cancel_at_period_end,
        }
      : null,
    renews_at: renews ? periodEnd : null,
    payments: deps.payments.kind,
    default_billing_period: DEFAULT_BILLING_PERIOD,
    plans: PLANS.map((plan) => ({
      tier: plan.tier,
      name: plan.name,
      features: [...plan.features],
      badge: plan.badge ?? null,
      cta: plan.cta,
      available: plan.available,
      highlighted: plan.highlighted ?? false,
      price_monthly_usd: planPriceCents(plan, "monthly") / 100,
      price_yearly_usd: planPriceCents(plan, "yearly") / 100,
      credits_monthly: planPeriodCredits(plan, "monthly"),
      credits_yearly: planPeriodCredits(plan, "yearly"),
      cochat_access: hasCoChatAccess(plan.tier),
    })),
    packs: CREDIT_PACKS.map((pack) => ({
      id: pack.id,
      name: pack.name,
      credits: pack.credits,
      price_usd: pack.priceCents / 100,
    })),
  };
}

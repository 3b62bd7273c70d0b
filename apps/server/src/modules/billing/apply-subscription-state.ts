import type {
  TBillingPeriod,
  TPaidTier,
  TSubscriptionStatus,
  TSubscriptionTier,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { setSubscriptionTier } from "../users/set-subscription-tier";

/** What one Stripe event says about a subscription; fields it does not speak of are left out. */
export interface SubscriptionState {
  userId: string;
  subscriptionId: string;
  /** The event's `created` (seconds): states older than the applied one are ignored. */
  at: number;
  status: TSubscriptionStatus;
  tier?: TPaidTier | undefined;
  billingPeriod?: TBillingPeriod | undefined;
  currentPeriodEnd?: number | undefined;
  cancelAtPeriodEnd?: boolean | undefined;
}

export interface SubscriptionRow {
  user_id: string;
  stripe_subscription_id: string;
  tier: TPaidTier;
  billing_period: TBillingPeriod;
  status: TSubscriptionStatus;
  current_period_end: Date | string | null;
  cancel_at_period_end: boolean;
  state_at: number;
}

const SUBSCRIPTION_COLUMNS =
  "user_id, stripe_subscription_id, tier, billing_period, status, current_period_end, cancel_at_period_end, state_at";

/** Statuses in which the subscription's tier is in force; past_due keeps it while Stripe retries. */
const ENTITLED: readonly TSubscriptionStatus[] = ["active", "trialing", "past_due"];

export function effectiveTier(row: Pick<SubscriptionRow, "tier" | "status">): TSubscriptionTier {
  return ENTITLED.includes(row.status) ? row.tier : "free";
}

export async function findSubscription(
  db: Queryable,
  by: { userId: string } | { subscriptionId: string },
): Promise<SubscriptionRow | null> {
  const [column, value] =
    "userId" in by ? ["user_id", by.userId] : ["stripe_subscription_id", by.subscriptionId];
  const { rows } = await db.query<SubscriptionRow>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM billing_subscriptions WHERE ${column} = $1`,
    [value],
  );
  return rows[0] ?? null;
}

/**
 * Applies what an event says about the user's subscription, whatever order events arrive in:
 * - an event older (by Stripe's `created`) than the state already applied changes nothing;
 * - a canceled subscription stays canceled (Stripe never revives one), so a late
 *   `checkout.session.completed` or `invoice.paid` cannot undo a cancellation;
 * - a different, newer subscription replaces the stored one; the late cancellation of a
 *   replaced one does not touch its successor.
 * The profile's tier follows in the same transaction: the plan's tier while the subscription
 * is active, trialing or past due (Stripe still retrying); free otherwise. A cancellation at
 * period end keeps the tier until Stripe ends the subscription (customer.subscription.deleted).
 */
export async function applySubscriptionState(
  tx: Queryable,
  state: SubscriptionState,
): Promise<string> {
  // Serialises concurrent events of one user even before their first subscription row
  // exists (FOR UPDATE alone would lock nothing then).
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('billing:' || $1::text))", [state.userId]);
  const current = await findSubscription(tx, { userId: state.userId });
  if (current) {
    const same = current.stripe_subscription_id === state.subscriptionId;
    if (same && current.status === "canceled" && state.status !== "canceled") {
      return "ignored: the subscription is canceled";
    }
    if (state.at < current.state_at && (same || current.status !== "canceled")) {
      return "ignored: older than the applied state";
    }
    if (!same && state.status === "canceled" && current.status !== "canceled") {
      return "ignored: cancellation of a replaced subscription";
    }
  }
  const carried = current?.stripe_subscription_id === state.subscriptionId ? current : null;
  const tier = state.tier ?? carried?.tier;
  const billingPeriod = state.billingPeriod ?? carried?.billing_period ?? "monthly";
  if (!tier) return "ignored: unknown plan";
  const periodEnd =
    state.currentPeriodEnd !== undefined
      ? new Date(state.currentPeriodEnd * 1000)
      : (carried?.current_period_end ?? null);
  const { rows } = await tx.query<SubscriptionRow>(
    `INSERT INTO billing_subscriptions
       (user_id, stripe_subscription_id, tier, billing_period, status, current_period_end,
        cancel_at_period_end, state_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
     ON CONFLICT (user_id) DO UPDATE SET
       stripe_subscription_id = EXCLUDED.stripe_subscription_id, tier = EXCLUDED.tier,
       billing_period = EXCLUDED.billing_period, status = EXCLUDED.status,
       current_period_end = EXCLUDED.current_period_end,
       cancel_at_period_end = EXCLUDED.cancel_at_period_end,
       state_at = GREATEST(EXCLUDED.state_at, billing_subscriptions.state_at), updated_at = now()
     RETURNING ${SUBSCRIPTION_COLUMNS}`,
    [
      state.userId,
      state.subscriptionId,
      tier,
      billingPeriod,
      state.status,
      periodEnd,
      state.cancelAtPeriodEnd ?? carried?.cancel_at_period_end ?? false,
      state.at,
    ],
  );
  await setSubscriptionTier(tx, state.userId, effectiveTier(rows[0] as SubscriptionRow));
  return `subscription ${state.status}`;
}

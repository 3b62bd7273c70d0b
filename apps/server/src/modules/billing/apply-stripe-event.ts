import {
  BILLING_PERIODS,
  findCreditPack,
  findPlan,
  PAID_TIERS,
  PLANS,
  planPeriodCredits,
  planPriceCents,
  SUBSCRIPTION_STATUSES,
  type TBillingPeriod,
  type TPaidTier,
  type TSubscriptionStatus,
} from "@cohort/contracts";
import type { Stripe } from "stripe";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { applyLedgerEntry } from "../credits/apply-ledger-entry";
import type { CreditChange } from "../credits/credits-deps";
import { findUserById } from "../users/find-user";
import { recordWorkspaceAudit } from "../workspaces/record-workspace-audit";
import { applySubscriptionState, findSubscription } from "./apply-subscription-state";
import { CHECKOUT_COLUMNS, type CheckoutRow } from "./checkout-row";
import { rememberCustomer } from "./ensure-customer";

/**
 * Applies one verified Stripe event inside the transaction that records its id, and says
 * what it did (stored with the event). Credit grants go to `changes`, published after commit.
 * Money is never lost to ordering: a paid invoice or checkout grants its credits whenever it
 * arrives, keyed by the invoice or session id, and subscription states obey the ordering rules
 * of applySubscriptionState.
 */
export async function applyStripeEvent(
  tx: Queryable,
  event: Stripe.Event,
  changes: CreditChange[],
): Promise<string> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return completeCheckout(tx, event.data.object, event.created, changes);
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      return closeCheckout(
        tx,
        event.data.object.id,
        event.type === "checkout.session.expired" ? "canceled" : "failed",
      );
    case "invoice.paid":
      return invoicePaid(tx, event.data.object, event.created, changes);
    case "invoice.payment_failed":
      return invoicePaymentFailed(tx, event.data.object, event.created);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return subscriptionChanged(tx, event.data.object, event.created, event.type);
    default:
      return "ignored: not handled";
  }
}

async function findCheckout(tx: Queryable, id: string): Promise<CheckoutRow | null> {
  const { rows } = await tx.query<CheckoutRow>(
    `SELECT ${CHECKOUT_COLUMNS} FROM billing_checkouts WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ?? null;
}

async function closeCheckout(
  tx: Queryable,
  id: string,
  status: "completed" | "canceled" | "failed",
): Promise<string> {
  // A completed checkout stays completed, whatever arrives after it.
  const { rowCount } = await tx.query(
    `UPDATE billing_checkouts SET status = $2, completed_at = now()
     WHERE id = $1 AND status <> 'completed'`,
    [id, status],
  );
  return rowCount > 0 ? `checkout ${status}` : "ignored: checkout already closed";
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

async function completeCheckout(
  tx: Queryable,
  session: Stripe.Checkout.Session,
  created: number,
  changes: CreditChange[],
): Promise<string> {
  const checkout = await findCheckout(tx, session.id);
  if (!checkout) return "ignored: not a checkout of ours";
  if (session.client_reference_id && session.client_reference_id !== checkout.user_id) {
    return "ignored: the checkout belongs to another user";
  }
  const customer = idOf(session.customer);
  if (customer) await rememberCustomer(tx, checkout.user_id, customer);
  // Delayed payment methods complete the session unpaid; async_payment_succeeded follows.
  if (session.payment_status === "unpaid") return "awaiting payment";

  if (checkout.kind === "credits") {
    const pack = checkout.package_id ? findCreditPack(checkout.package_id) : undefined;
    // A pack bought for a team workspace fills its pool (decision 040); the audit line is
    // written with the grant, so neither exists without the other.
    const change = await applyLedgerEntry(tx, {
      userId: checkout.workspace_id ?? checkout.user_id,
      credits: checkout.credits,
      reason: "credit_purchase",
      reference: checkout.id,
      description: `Credit pack: ${pack?.name ?? `${checkout.credits} credits`}`,
    });
    if (change) changes.push(change);
    if (change && checkout.workspace_id) {
      await recordWorkspaceAudit(tx, {
        workspaceId: checkout.workspace_id,
        actorId: checkout.user_id,
        action: "credits.purchased",
        details: {
          credits: Number(checkout.credits),
          package_id: checkout.package_id,
          checkout_id: checkout.id,
        },
      });
    }
    await closeCheckout(tx, checkout.id, "completed");
    return change ? `granted ${checkout.credits} credits` : "credits already granted";
  }

  await closeCheckout(tx, checkout.id, "completed");
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId || !checkout.tier) return "ignored: no subscription on the session";
  // Credits come with invoice.paid (also for the first period); this sets the plan.
  return applySubscriptionState(tx, {
    userId: checkout.user_id,
    subscriptionId,
    at: created,
    status: "active",
    tier: checkout.tier,
    billingPeriod: checkout.billing_period ?? "monthly",
  });
}

function asTier(value: string | undefined): TPaidTier | undefined {
  return PAID_TIERS.find((tier) => tier === value);
}

function asPeriod(value: string | undefined): TBillingPeriod | undefined {
  return BILLING_PERIODS.find((period) => period === value);
}

function asStatus(value: string): TSubscriptionStatus {
  if (value === "incomplete_expired") return "canceled";
  return SUBSCRIPTION_STATUSES.find((status) => status === value) ?? "incomplete";
}

/** The user a subscription event is about: its metadata, else the subscription we stored. */
async function subscriptionOwner(
  tx: Queryable,
  subscriptionId: string,
  metadata: Stripe.Metadata | null | undefined,
): Promise<string | null> {
  const known = await findSubscription(tx, { subscriptionId });
  if (known) return known.user_id;
  const userId = metadata?.user_id;
  if (!userId) return null;
  return isUuid(userId) && (await findUserById(tx, userId)) ? userId : null;
}

type InvoiceSubscription = NonNullable<Stripe.Invoice["parent"]>["subscription_details"];

/** The subscription an invoice is for and the user who owns it, or why the invoice is ignored. */
async function invoiceOwner(
  tx: Queryable,
  invoice: Stripe.Invoice,
): Promise<
  { details: InvoiceSubscription | undefined; subscriptionId: string; userId: string } | string
> {
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  if (!subscriptionId) return "ignored: not a subscription invoice";
  const userId = await subscriptionOwner(tx, subscriptionId, details?.metadata);
  if (!userId) return "ignored: unknown subscription";
  return { details, subscriptionId, userId };
}

/** Invoices that start a paid period; proration invoices of mid-period changes grant nothing. */
const PERIOD_INVOICES = new Set(["subscription_create", "subscription_cycle", "manual", null]);

async function invoicePaid(
  tx: Queryable,
  invoice: Stripe.Invoice,
  created: number,
  changes: CreditChange[],
): Promise<string> {
  const owned = await invoiceOwner(tx, invoice);
  if (typeof owned === "string") return owned;
  const { details, subscriptionId, userId } = owned;
  const known = await findSubscription(tx, { subscriptionId });
  const tier = asTier(details?.metadata?.tier) ?? known?.tier;
  const plan = tier ? findPlan(tier) : undefined;
  if (!tier || !plan) return "ignored: unknown plan";
  const billingPeriod =
    asPeriod(details?.metadata?.billing_period) ?? known?.billing_period ?? "monthly";
  const line = invoice.lines?.data?.[0];
  let outcome = "no credits for a proration invoice";
  if (PERIOD_INVOICES.has(invoice.billing_reason ?? null)) {
    const credits = planPeriodCredits(plan, billingPeriod);
    const change = await applyLedgerEntry(tx, {
      userId,
      credits,
      reason: "subscription_grant",
      reference: invoice.id,
      description: `${plan.name} plan: ${billingPeriod} credits`,
    });
    if (change) changes.push(change);
    outcome = change ? `granted ${credits} credits` : "credits already granted";
  }
  const state = await applySubscriptionState(tx, {
    userId,
    subscriptionId,
    at: created,
    status: "active",
    tier,
    billingPeriod,
    currentPeriodEnd: line?.period?.end ?? undefined,
  });
  return `${outcome}; ${state}`;
}

async function invoicePaymentFailed(
  tx: Queryable,
  invoice: Stripe.Invoice,
  created: number,
): Promise<string> {
  const owned = await invoiceOwner(tx, invoice);
  if (typeof owned === "string") return owned;
  const { details, subscriptionId, userId } = owned;
  return applySubscriptionState(tx, {
    userId,
    subscriptionId,
    at: created,
    status: "past_due",
    tier: asTier(details?.metadata?.tier),
    billingPeriod: asPeriod(details?.metadata?.billing_period),
  });
}

/**
 * The plan a subscription is on now. Its items say so after a plan change in the portal
 * (the price's `cohort_tier` metadata, or its amount and interval); the metadata we set at
 * checkout says so otherwise.
 */
function tierOfSubscription(subscription: Stripe.Subscription): {
  tier: TPaidTier | undefined;
  billingPeriod: TBillingPeriod | undefined;
} {
  const price = subscription.items?.data?.[0]?.price;
  const interval = price?.recurring?.interval;
  const billingPeriod: TBillingPeriod | undefined =
    interval === "year" ? "yearly" : interval === "month" ? "monthly" : undefined;
  const byMetadata = asTier(price?.metadata?.cohort_tier);
  const byAmount =
    billingPeriod && typeof price?.unit_amount === "number"
      ? PLANS.find((plan) => planPriceCents(plan, billingPeriod) === price.unit_amount)?.tier
      : undefined;
  return {
    tier: byMetadata ?? asTier(byAmount) ?? asTier(subscription.metadata?.tier),
    billingPeriod: billingPeriod ?? asPeriod(subscription.metadata?.billing_period),
  };
}

async function subscriptionChanged(
  tx: Queryable,
  subscription: Stripe.Subscription,
  created: number,
  type: string,
): Promise<string> {
  const userId = await subscriptionOwner(tx, subscription.id, subscription.metadata);
  if (!userId) return "ignored: unknown subscription";
  const item = subscription.items?.data?.[0];
  const { tier, billingPeriod } = tierOfSubscription(subscription);
  return applySubscriptionState(tx, {
    userId,
    subscriptionId: subscription.id,
    at: created,
    status: type === "customer.subscription.deleted" ? "canceled" : asStatus(subscription.status),
    tier,
    billingPeriod,
    currentPeriodEnd: item?.current_period_end ?? undefined,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  });
}

import { createHash, randomBytes } from "node:crypto";

import type { BillingDeps } from "./billing-deps";
import { handleWebhook, type WebhookOutcome } from "./handle-webhook";
import { loadStripe } from "./stripe-client";

/**
 * Events of the dev checkout, in Stripe's own format, signed with the webhook secret and sent
 * through the same handler as Stripe's: nothing about fulfilment differs between the two.
 */
export interface DevEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

/** Ids derived from a seed, so paying the same dev checkout twice repeats the same events. */
export function devId(prefix: string, seed: string): string {
  return `${prefix}_dev_${createHash("sha256").update(seed).digest("base64url").slice(0, 24)}`;
}

export function randomDevId(prefix: string): string {
  return `${prefix}_dev_${randomBytes(18).toString("base64url")}`;
}

function toStripeEvent(event: DevEvent, created: number, apiVersion: string): string {
  return JSON.stringify({
    id: event.id,
    object: "event",
    api_version: apiVersion,
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: event.type,
    data: { object: event.object },
  });
}

export async function sendDevEvents(
  deps: BillingDeps,
  events: readonly DevEvent[],
): Promise<WebhookOutcome[]> {
  const { Stripe } = await loadStripe();
  const outcomes: WebhookOutcome[] = [];
  const created = Math.floor(Date.now() / 1000);
  for (const event of events) {
    const payload = toStripeEvent(event, created, Stripe.API_VERSION);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: deps.webhookSecret,
    });
    outcomes.push(await handleWebhook(deps, payload, signature));
  }
  return outcomes;
}

const PERIOD_S = { monthly: 30 * 86_400, yearly: 365 * 86_400 } as const;

export interface DevSubscription {
  id: string;
  customer: string;
  metadata: Record<string, string>;
  billingPeriod: "monthly" | "yearly";
}

/** A paid invoice of a dev subscription for the period starting at `start` (seconds). */
export function devInvoicePaid(
  subscription: DevSubscription,
  invoiceId: string,
  start: number,
  amountCents: number,
  billingReason: "subscription_create" | "subscription_cycle",
): DevEvent {
  const end = start + PERIOD_S[subscription.billingPeriod];
  return {
    id: devId("evt", `${invoiceId}:invoice.paid`),
    type: "invoice.paid",
    object: {
      id: invoiceId,
      object: "invoice",
      customer: subscription.customer,
      status: "paid",
      billing_reason: billingReason,
      amount_due: amountCents,
      amount_paid: amountCents,
      currency: "usd",
      livemode: false,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      lines: {
        object: "list",
        has_more: false,
        data: [{ object: "line_item", amount: amountCents, period: { start, end } }],
      },
      period_start: start,
      period_end: end,
    },
  };
}

/** A customer.subscription.* event for a dev subscription. */
export function devSubscriptionEvent(
  subscription: DevSubscription,
  type: "customer.subscription.updated" | "customer.subscription.deleted",
  state: { status: string; cancelAtPeriodEnd: boolean; periodEnd: number | null },
): DevEvent {
  return {
    id: randomDevId("evt"),
    type,
    object: {
      id: subscription.id,
      object: "subscription",
      customer: subscription.customer,
      status: state.status,
      cancel_at_period_end: state.cancelAtPeriodEnd,
      metadata: subscription.metadata,
      items: {
        object: "list",
        data: [{ object: "subscription_item", current_period_end: state.periodEnd }],
      },
    },
  };
}

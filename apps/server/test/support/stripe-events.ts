import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Stripe } from "stripe";

/**
 * Stripe-format webhook deliveries for billing tests, signed the way Stripe signs them
 * (stripe.webhooks.generateTestHeaderString), and sent to the real webhook route.
 */
export const TEST_WEBHOOK_SECRET = "whsec_cohort_test_secret_0123456789abcdef";

export interface TestEvent {
  id?: string;
  type: string;
  /** Stripe's `created`, in seconds; now by default. */
  created?: number;
  object: Record<string, unknown>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const testId = (prefix: string) => `${prefix}_test_${randomBytes(9).toString("hex")}`;

export function eventPayload(event: TestEvent): { id: string; payload: string } {
  const id = event.id ?? testId("evt");
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: Stripe.API_VERSION,
    created: event.created ?? nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: event.type,
    data: { object: event.object },
  });
  return { id, payload };
}

export async function deliver(
  app: FastifyInstance,
  event: TestEvent,
  options: { secret?: string; timestamp?: number; signature?: string | null } = {},
) {
  const { payload } = eventPayload(event);
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? TEST_WEBHOOK_SECRET,
          ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
        })
      : options.signature;
  return app.inject({
    method: "POST",
    url: "/api/billing/webhook",
    headers: {
      "content-type": "application/json",
      ...(signature !== null ? { "stripe-signature": signature } : {}),
    },
    payload,
  });
}

/** A paid subscription invoice as Stripe sends it in invoice.paid / invoice.payment_failed. */
export function invoiceObject(input: {
  id?: string;
  subscription: string;
  customer?: string;
  metadata: Record<string, string>;
  billingReason?: string;
  periodStart?: number;
  periodEnd?: number;
  amount?: number;
}): Record<string, unknown> {
  const start = input.periodStart ?? nowSeconds();
  return {
    id: input.id ?? testId("in"),
    object: "invoice",
    customer: input.customer ?? "cus_test_1",
    billing_reason: input.billingReason ?? "subscription_create",
    amount_paid: input.amount ?? 1999,
    parent: {
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: input.subscription, metadata: input.metadata },
    },
    lines: {
      object: "list",
      data: [{ period: { start, end: input.periodEnd ?? start + 30 * 86_400 } }],
    },
  };
}

export function subscriptionObject(input: {
  id: string;
  status: string;
  metadata: Record<string, string>;
  cancelAtPeriodEnd?: boolean;
  periodEnd?: number;
  price?: { unit_amount: number; interval: "month" | "year" };
}): Record<string, unknown> {
  return {
    id: input.id,
    object: "subscription",
    customer: "cus_test_1",
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    metadata: input.metadata,
    items: {
      object: "list",
      data: [
        {
          object: "subscription_item",
          current_period_end: input.periodEnd ?? nowSeconds() + 30 * 86_400,
          price: input.price
            ? {
                object: "price",
                unit_amount: input.price.unit_amount,
                recurring: { interval: input.price.interval },
                metadata: {},
              }
            : { object: "price", metadata: {} },
        },
      ],
    },
  };
}

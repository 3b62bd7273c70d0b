import { ERROR_CODES } from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Stripe } from "stripe";
import type { BillingConfig } from "../../config";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { ensureCustomer } from "./ensure-customer";
import type { Payments } from "./payments";
import { createStripeClient } from "./stripe-client";

/**
 * Stripe Checkout and Stripe's customer portal, every payment under the user's one Stripe
 * customer. The client is created on first use, so a server that never sells anything does
 * not load the SDK.
 */
export function stripePayments(
  config: NonNullable<BillingConfig["stripe"]>,
  deps: { db: Db; publicUrl: string; log: FastifyBaseLogger },
): Payments {
  let client: Promise<Stripe> | null = null;
  const stripe = () => {
    client ??= createStripeClient(config);
    return client;
  };

  /** Any failure of Stripe's API is the user's 503, logged with what was being done. */
  async function callStripe<T>(what: string, call: (api: Stripe) => Promise<T>): Promise<T> {
    try {
      return await call(await stripe());
    } catch (error) {
      deps.log.error({ err: error }, `${what} could not be created`);
      throw new AppError(
        ERROR_CODES.unavailable,
        503,
        "The payment provider is not reachable right now. Please try again in a minute.",
      );
    }
  }

  return {
    kind: "stripe",
    async openCheckout(buyer, item) {
      const session = await callStripe("Stripe Checkout Session", async (api) =>
        api.checkout.sessions.create({
          mode: item.renews ? "subscription" : "payment",
          customer: await ensureCustomer(deps.db, api, buyer),
          client_reference_id: buyer.id,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: item.amountCents,
                product_data: { name: item.name },
                ...(item.renews ? { recurring: { interval: item.renews } } : {}),
              },
            },
          ],
          metadata: item.metadata,
          ...(item.renews
            ? { subscription_data: { metadata: item.metadata } }
            : { payment_intent_data: { metadata: item.metadata } }),
          // Stripe fills in the id, so the return can say what this payment added.
          success_url: `${deps.publicUrl}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${deps.publicUrl}/billing?checkout=cancel`,
        }),
      );
      if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },
    async portalUrl(buyer) {
      const session = await callStripe("Stripe billing portal session", async (api) =>
        api.billingPortal.sessions.create({
          customer: await ensureCustomer(deps.db, api, buyer),
          return_url: `${deps.publicUrl}/billing`,
        }),
      );
      return session.url;
    },
  };
}

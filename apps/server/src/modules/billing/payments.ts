import type { TBillingSummary } from "@cohort/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { BillingConfig } from "../../config";
import type { Db } from "../../db/client";
import { devPayments } from "./dev-payments";
import { noPayments } from "./no-payments";
import { stripePayments } from "./stripe-payments";

/** Who pays: the signed-in user, as the payment provider's customer. */
export interface Buyer {
  id: string;
  email: string;
  displayName: string;
}

/** What is bought, as the payment page shows and charges it. */
export interface CheckoutItem {
  name: string;
  amountCents: number;
  /** How often a subscription renews; null for a one-off purchase (a credit pack). */
  renews: "month" | "year" | null;
  /** Travels with the payment and comes back on its events, which fulfil it. */
  metadata: Record<string, string>;
}

/** A payment page opened for one checkout. */
export interface OpenedCheckout {
  id: string;
  url: string;
  expiresAt: Date;
}

/**
 * The one seam for taking payments (docs/conventions.md): Stripe when STRIPE_SECRET_KEY is set,
 * else the built-in dev checkout when allowed (TEST_CHECKOUT, on by default outside
 * production), else none: purchases refused (decision 052). Chosen once, at start-up. Neither fulfils anything itself:
 * both report payments as Stripe-format signed events to the webhook handler.
 */
export interface Payments {
  /** Which one is active; the billing summary tells the UI. */
  readonly kind: TBillingSummary["payments"];
  openCheckout(buyer: Buyer, item: CheckoutItem): Promise<OpenedCheckout>;
  /** Where the buyer manages their subscription. */
  portalUrl(buyer: Buyer): Promise<string>;
}

export interface PaymentsOptions {
  stripe: BillingConfig["stripe"];
  testCheckout: boolean;
  db: Db;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function createPayments(options: PaymentsOptions): Payments {
  const { stripe, testCheckout, ...deps } = options;
  if (stripe) return stripePayments(stripe, deps);
  return testCheckout ? devPayments() : noPayments();
}

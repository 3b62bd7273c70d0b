import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Stripe } from "stripe";
import type { Db } from "../../db/client";
import { type CreditsDeps, creditsDeps } from "../credits/credits-deps";
import { createStripeClient } from "./stripe-client";

/** What the billing services need from the app, gathered once so they stay plain functions. */
export interface BillingDeps {
  db: Db;
  credits: CreditsDeps;
  /** The Stripe API; null when payments run on the dev checkout. */
  stripe: Stripe | null;
  webhookSecret: string;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function billingDeps(app: FastifyInstance): BillingDeps {
  const { billing } = app.config;
  return {
    db: app.db,
    credits: creditsDeps(app),
    stripe: billing.stripe ? createStripeClient(billing.stripe) : null,
    webhookSecret: billing.webhookSecret,
    publicUrl: app.config.publicUrl,
    log: app.log,
  };
}

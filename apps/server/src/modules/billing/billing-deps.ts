import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Stripe } from "stripe";
import type { Db } from "../../db/client";
import { type CreditsDeps, creditsDeps } from "../credits/credits-deps";
import { createStripeClient } from "./stripe-client";

/** What the billing services need from the app, gathered once so they stay plain functions. */
export interface BillingDeps {
  db: Db;
  credits: CreditsDeps;
  /** The Stripe API (created on first use); null when payments run on the dev checkout. */
  stripe: (() => Promise<Stripe>) | null;
  webhookSecret: string;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function billingDeps(app: FastifyInstance): BillingDeps {
  const { billing } = app.config;
  const stripeConfig = billing.stripe;
  let client: Promise<Stripe> | null = null;
  return {
    db: app.db,
    credits: creditsDeps(app),
    stripe: stripeConfig
      ? () => {
          client ??= createStripeClient(stripeConfig);
          return client;
        }
      : null,
    webhookSecret: billing.webhookSecret,
    publicUrl: app.config.publicUrl,
    log: app.log,
  };
}

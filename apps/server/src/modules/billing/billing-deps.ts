import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import { type CreditsDeps, creditsDeps } from "../credits/credits-deps";
import type { Payments } from "./payments";

/** What the billing services need from the app, gathered once so they stay plain functions. */
export interface BillingDeps {
  db: Db;
  credits: CreditsDeps;
  /** Stripe or the dev checkout, chosen at start-up (createPayments). */
  payments: Payments;
  webhookSecret: string;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function billingDeps(app: FastifyInstance, payments: Payments): BillingDeps {
  return {
    db: app.db,
    credits: creditsDeps(app),
    payments,
    webhookSecret: app.config.billing.webhookSecret,
    publicUrl: app.config.publicUrl,
    log: app.log,
  };
}

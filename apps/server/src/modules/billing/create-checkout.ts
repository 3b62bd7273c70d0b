import { randomBytes } from "node:crypto";
import {
  ERROR_CODES,
  findCreditPack,
  findPlan,
  planPeriodCredits,
  planPriceCents,
  type TBillingPeriod,
  type TCreditPackId,
  type TPaidTier,
} from "@cohort/contracts";
import type { Stripe } from "stripe";
import { AppError } from "../../platform/errors";
import type { BillingDeps } from "./billing-deps";
import { ensureCustomer } from "./ensure-customer";

export type CheckoutRequest =
  | { kind: "subscription"; tier: TPaidTier; billingPeriod: TBillingPeriod }
  | { kind: "credits"; packageId: TCreditPackId };

export interface CheckoutStarted {
  sessionId: string;
  checkoutUrl: string;
}

/** Dev checkouts, like Stripe's, can be paid for a day. */
const DEV_CHECKOUT_TTL_S = 24 * 60 * 60;

interface LineItem {
  name: string;
  amountCents: number;
  credits: number;
  metadata: Record<string, string>;
}

function describe(userId: string, request: CheckoutRequest): LineItem {
  if (request.kind === "subscription") {
    const plan = findPlan(request.tier);
    if (!plan) throw new AppError(ERROR_CODES.validationFailed, 400, "This plan does not exist.");
    return {
      name: `Cohort ${plan.name} (${request.billingPeriod})`,
      amountCents: planPriceCents(plan, request.billingPeriod),
      credits: planPeriodCredits(plan, request.billingPeriod),
      metadata: {
        user_id: userId,
        kind: "subscription",
        tier: plan.tier,
        billing_period: request.billingPeriod,
      },
    };
  }
  const pack = findCreditPack(request.packageId);
  if (!pack)
    throw new AppError(ERROR_CODES.validationFailed, 400, "This credit pack does not exist.");
  return {
    name: `Cohort credits: ${pack.name}`,
    amountCents: Math.round(pack.priceUsd * 100),
    credits: pack.credits,
    metadata: { user_id: userId, kind: "credits", package_id: pack.id },
  };
}

/**
 * Starts a payment: a Stripe Checkout Session with STRIPE_SECRET_KEY, else a dev checkout
 * page of ours. Either way a checkout row remembers what was bought, for fulfilment.
 */
export async function createCheckout(
  deps: BillingDeps,
  user: { id: string; email: string; displayName: string },
  request: CheckoutRequest,
): Promise<CheckoutStarted> {
  const item = describe(user.id, request);
  let started: CheckoutStarted & { expiresAt: Date };
  if (deps.stripe) {
    const session = await createStripeSession(deps, await deps.stripe(), user, request, item);
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
    started = {
      sessionId: session.id,
      checkoutUrl: session.url,
      expiresAt: new Date(
        session.expires_at ? session.expires_at * 1000 : Date.now() + DEV_CHECKOUT_TTL_S * 1000,
      ),
    };
  } else {
    // The id is the page's only key besides the user's session: unguessable, single-user.
    const id = `cs_test_dev_${randomBytes(24).toString("base64url")}`;
    started = {
      sessionId: id,
      // Same-origin path, so the browser keeps the session cookie whichever host it used.
      checkoutUrl: `/api/billing/dev-checkout/${id}`,
      expiresAt: new Date(Date.now() + DEV_CHECKOUT_TTL_S * 1000),
    };
  }
  await deps.db.query(
    `INSERT INTO billing_checkouts
       (id, user_id, mode, kind, tier, billing_period, package_id, credits, amount_cents, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      started.sessionId,
      user.id,
      deps.stripe ? "stripe" : "dev",
      request.kind,
      request.kind === "subscription" ? request.tier : null,
      request.kind === "subscription" ? request.billingPeriod : null,
      request.kind === "credits" ? request.packageId : null,
      item.credits,
      item.amountCents,
      started.expiresAt,
    ],
  );
  return { sessionId: started.sessionId, checkoutUrl: started.checkoutUrl };
}

async function createStripeSession(
  deps: BillingDeps,
  stripe: Stripe,
  user: { id: string; email: string; displayName: string },
  request: CheckoutRequest,
  item: LineItem,
): Promise<Stripe.Checkout.Session> {
  const subscription = request.kind === "subscription";
  try {
    const customer = await ensureCustomer(deps, user);
    return await stripe.checkout.sessions.create({
      mode: subscription ? "subscription" : "payment",
      customer,
      client_reference_id: user.id,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: item.amountCents,
            product_data: { name: item.name },
            ...(request.kind === "subscription"
              ? { recurring: { interval: request.billingPeriod === "yearly" ? "year" : "month" } }
              : {}),
          },
        },
      ],
      metadata: item.metadata,
      ...(subscription
        ? { subscription_data: { metadata: item.metadata } }
        : { payment_intent_data: { metadata: item.metadata } }),
      success_url: `${deps.publicUrl}/billing?checkout=success`,
      cancel_url: `${deps.publicUrl}/billing?checkout=cancel`,
    });
  } catch (error) {
    deps.log.error({ err: error }, "Stripe Checkout Session could not be created");
    throw new AppError(
      ERROR_CODES.unavailable,
      503,
      "The payment provider is not reachable right now. Please try again in a minute.",
    );
  }
}

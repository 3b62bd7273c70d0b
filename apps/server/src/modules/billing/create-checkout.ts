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
import { AppError } from "../../platform/errors";
import type { BillingDeps } from "./billing-deps";
import type { Buyer, CheckoutItem } from "./payments";

export type CheckoutRequest =
  | { kind: "subscription"; tier: TPaidTier; billingPeriod: TBillingPeriod }
  | {
      kind: "credits";
      packageId: TCreditPackId;
      /** A team workspace whose pool gets the credits (checked by the route); null: the buyer. */
      workspaceId: string | null;
    };

export interface CheckoutStarted {
  sessionId: string;
  checkoutUrl: string;
}

/** What the checkout sells, with the credits its payment brings. */
interface LineItem extends CheckoutItem {
  credits: number;
}

function describe(userId: string, request: CheckoutRequest): LineItem {
  if (request.kind === "subscription") {
    const plan = findPlan(request.tier);
    if (!plan) throw new AppError(ERROR_CODES.validationFailed, 400, "This plan does not exist.");
    return {
      name: `Cohort ${plan.name} (${request.billingPeriod})`,
      amountCents: planPriceCents(plan, request.billingPeriod),
      credits: planPeriodCredits(plan, request.billingPeriod),
      renews: request.billingPeriod === "yearly" ? "year" : "month",
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
    amountCents: pack.priceCents,
    credits: pack.credits,
    renews: null,
    metadata: {
      user_id: userId,
      kind: "credits",
      package_id: pack.id,
      ...(request.workspaceId ? { workspace_id: request.workspaceId } : {}),
    },
  };
}

/**
 * Starts a payment on the active payment component (Stripe Checkout or the dev checkout).
 * Either way a checkout row remembers what was bought, for fulfilment.
 */
export async function createCheckout(
  deps: BillingDeps,
  user: Buyer,
  request: CheckoutRequest,
): Promise<CheckoutStarted> {
  const item = describe(user.id, request);
  const opened = await deps.payments.openCheckout(user, item);
  await deps.db.query(
    `INSERT INTO billing_checkouts
       (id, user_id, mode, kind, tier, billing_period, package_id, credits, amount_cents, expires_at,
        workspace_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      opened.id,
      user.id,
      deps.payments.kind,
      request.kind,
      request.kind === "subscription" ? request.tier : null,
      request.kind === "subscription" ? request.billingPeriod : null,
      request.kind === "credits" ? request.packageId : null,
      item.credits,
      item.amountCents,
      opened.expiresAt,
      request.kind === "credits" ? request.workspaceId : null,
    ],
  );
  return { sessionId: opened.id, checkoutUrl: opened.url };
}

import type { TBillingPeriod, TPaidTier } from "@cohort/contracts";

/** A checkout we started (Stripe Checkout Session or dev checkout); only billing reads it. */
export interface CheckoutRow {
  id: string;
  user_id: string;
  /** The team workspace whose pool a credit pack is for; null: the buyer's own account. */
  workspace_id: string | null;
  mode: "stripe" | "dev";
  kind: "subscription" | "credits";
  tier: TPaidTier | null;
  billing_period: TBillingPeriod | null;
  package_id: string | null;
  credits: number;
  amount_cents: number;
  status: "open" | "completed" | "canceled" | "failed";
  expires_at: Date | string;
}

export const CHECKOUT_COLUMNS =
  "id, user_id, workspace_id, mode, kind, tier, billing_period, package_id, credits, amount_cents, status, expires_at";

import type { TCheckoutOutcome, TLedgerReason } from "@cohort/contracts";
import { formatCredits } from "../../lib/format/numbers";

/** Pure formatting for the /billing screen (unit-tested; no React, no DOM). */

export const LEDGER_REASON_LABELS: Record<TLedgerReason, string> = {
  signup_grant: "Welcome credits",
  subscription_grant: "Plan credits",
  credit_purchase: "Credit pack",
  usage: "Usage",
  admin_adjustment: "Adjustment",
  opening_balance: "Opening balance",
};

export function ledgerReasonLabel(reason: string): string {
  return LEDGER_REASON_LABELS[reason as TLedgerReason] ?? reason.replaceAll("_", " ");
}

const round2 = (value: number) => Math.round(value * 100) / 100;

// The billing screen's names for the shared formats (lib/format/numbers.ts, decision 032).
/** Tokens in a small space: "950", "12.3K", "2.5M". */
/** US dollars: "$1,999.90"; sub-cent costs keep four decimals rather than read as $0.00. */
export {
  formatCompact as formatTokens,
  formatCreditDelta,
  formatNumber,
  formatUsd as formatCost,
  formatUsd as formatPrice,
} from "../../lib/format/numbers";

/**
 * The top of a bar chart's scale: the smallest 1, 2, 2.5 or 5 × 10^k at or above `max`, so the
 * gridline labels are round numbers. An empty chart still gets a scale of 1.
 */
export function niceCeiling(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    if (candidate >= max - 1e-9) return round2(candidate) || candidate;
  }
  return 10 * magnitude;
}

/** A bar's length as a percentage of the scale, at least a sliver for any non-zero value. */
export function barPercent(value: number, scale: number): number {
  if (value <= 0 || scale <= 0) return 0;
  return Math.max(1.5, Math.min(100, (value / scale) * 100));
}

/** The return toast for a checkout the server has settled; null while it is still open. */
export function checkoutOutcomeToast(
  outcome: TCheckoutOutcome,
): { title: string; variant: "success" | "error" } | null {
  if (outcome.status === "open") return null;
  if (outcome.status !== "completed") {
    return {
      title: "The payment did not go through. You have not been charged.",
      variant: "error",
    };
  }
  if (outcome.kind === "credits") {
    return {
      title: `Payment received: ${formatCredits(outcome.credits)} added to your balance.`,
      variant: "success",
    };
  }
  const yearly = outcome.billing_period === "yearly";
  return {
    title: `Payment received: you are on the ${outcome.plan_name ?? "new"} plan, billed ${yearly ? "yearly" : "monthly"}, with ${formatCredits(outcome.credits)} a ${yearly ? "year" : "month"}.`,
    variant: "success",
  };
}

/** While the payment provider has not yet told us (its webhook comes a moment later). */
export const CHECKOUT_CONFIRMING_MESSAGE =
  "Thank you! Your payment is being confirmed; your balance and plan update as soon as it is.";

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

// The billing screen's names for the shared formats (lib/format/numbers.ts, decision 032).
/** Tokens in a small space: "950", "12.3K", "2.5M". */
/** US dollars: "$1,999.90"; sub-cent costs keep four decimals rather than read as $0.00. */
export {
  formatCompact as formatTokens,
  formatCreditDelta,
  formatUsd as formatCost,
  formatUsd as formatPrice,
} from "../../lib/format/numbers";

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

import { BILLING_ERROR_CODES } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { Payments } from "./payments";

export const PURCHASES_OFF_MESSAGE =
  "Purchases are turned off: this server has no payment provider configured.";

function purchasesOff(): AppError {
  return new AppError(BILLING_ERROR_CODES.paymentsUnavailable, 503, PURCHASES_OFF_MESSAGE);
}

/**
 * Production without Stripe and without TEST_CHECKOUT=1: nothing is sold. The built-in test
 * checkout would hand out credits and tiers for nothing (decision 052), so every purchase and
 * the portal answer 503 instead.
 */
export function noPayments(): Payments {
  return {
    kind: "off",
    async openCheckout() {
      throw purchasesOff();
    },
    async portalUrl() {
      throw purchasesOff();
    },
  };
}

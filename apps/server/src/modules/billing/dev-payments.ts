import { randomBytes } from "node:crypto";
import type { Payments } from "./payments";

/** Dev checkouts, like Stripe's, can be paid for a day. */
const DEV_CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The built-in test checkout: our own payment page and portal (dev-checkout.ts,
 * dev-portal.ts), which "pay" by sending Stripe-format events through the webhook handler.
 */
export function devPayments(): Payments {
  return {
    kind: "dev",
    async openCheckout() {
      // The id is the page's only key besides the user's session: unguessable, single-user.
      const id = `cs_test_dev_${randomBytes(24).toString("base64url")}`;
      return {
        id,
        // Same-origin path, so the browser keeps the session cookie whichever host it used.
        url: `/api/billing/dev-checkout/${id}`,
        expiresAt: new Date(Date.now() + DEV_CHECKOUT_TTL_MS),
      };
    },
    async portalUrl() {
      return "/api/billing/dev-portal";
    },
  };
}

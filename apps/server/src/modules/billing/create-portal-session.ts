import { ERROR_CODES } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { BillingDeps } from "./billing-deps";
import { ensureCustomer } from "./ensure-customer";

/** Where the user manages their subscription: Stripe's customer portal, or our dev page. */
export async function createPortalSession(
  deps: BillingDeps,
  user: { id: string; email: string; displayName: string },
): Promise<string> {
  if (!deps.stripe) return "/api/billing/dev-portal";
  try {
    const stripe = await deps.stripe();
    const customer = await ensureCustomer(deps, user);
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: `${deps.publicUrl}/billing`,
    });
    return session.url;
  } catch (error) {
    deps.log.error({ err: error }, "Stripe billing portal session could not be created");
    throw new AppError(
      ERROR_CODES.unavailable,
      503,
      "The payment provider is not reachable right now. Please try again in a minute.",
    );
  }
}

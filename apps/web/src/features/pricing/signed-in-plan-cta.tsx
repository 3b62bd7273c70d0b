import type { TPaidTier, TPlan, TSubscriptionTier } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { AuthSnapshot } from "../../auth/auth-store";
import { Button, ButtonLink } from "../../components/button";
import { billingKeys, createCheckoutSession, fetchBillingSummary } from "../billing/billing-api";
import { planAction } from "../billing/plan-actions";
import { usePortal } from "../billing/use-portal";
import { type RedirectAction, useRedirectAction } from "../billing/use-redirect-action";

/**
 * For a signed-in visitor /pricing sells the plans the way /billing does (decision 030): the
 * same checkout (monthly, the spec's default period; it comes back to /billing), or the
 * customer portal for a live Stripe subscription, instead of the public 'Coming Soon'.
 */
export interface PlanOffers {
  /** The visitor's plan now. */
  tier: TSubscriptionTier;
  render(plan: TPlan): ReactNode;
}

export function useSignedInOffers(auth: AuthSnapshot): PlanOffers | null {
  const signedIn = auth.status === "authenticated" && auth.user !== null;
  const summary = useQuery({
    queryKey: billingKeys.summary,
    queryFn: ({ signal }) => fetchBillingSummary(signal),
    enabled: signedIn,
  });
  const checkout = useRedirectAction(
    (tier: TPaidTier) =>
      createCheckoutSession(tier, "monthly").then((response) => response.checkout_url),
    "Could not start checkout",
  );
  const portal = usePortal();
  if (!signedIn || !auth.user) return null;
  const context = summary.data
    ? {
        currentTier: summary.data.tier,
        subscription: summary.data.subscription,
        payments: summary.data.payments,
      }
    : { currentTier: auth.user.subscription_tier, subscription: null, payments: "dev" as const };
  return {
    tier: context.currentTier,
    render: (plan) => (
      <PlanOfferButton
        plan={plan}
        action={planAction(plan, context, "monthly")}
        ready={summary.isSuccess}
        failed={summary.isError}
        checkout={checkout}
        portal={portal}
      />
    ),
  };
}

function PlanOfferButton({
  plan,
  action,
  ready,
  failed,
  checkout,
  portal,
}: {
  plan: TPlan;
  action: ReturnType<typeof planAction>;
  ready: boolean;
  failed: boolean;
  checkout: RedirectAction<TPaidTier>;
  portal: RedirectAction<"portal">;
}) {
  if (failed) {
    // Without the billing details the plan is still one page away.
    return (
      <ButtonLink to="/billing" size="lg" variant="outline" className="w-full">
        Choose on Billing
      </ButtonLink>
    );
  }
  if (action.kind === "current") {
    return (
      <Button variant="outline" size="lg" className="w-full" disabled>
        {action.label}
      </Button>
    );
  }
  const running = action.kind === "portal" ? portal.busy : checkout.isRunning(plan.tier);
  return (
    <Button
      size="lg"
      className="h-auto! min-h-11 w-full py-2 whitespace-normal!"
      variant={plan.highlighted ? "primary" : "secondary"}
      aria-label={action.ariaLabel}
      disabled={!ready || checkout.busy || portal.busy}
      aria-busy={running || undefined}
      onClick={() => (action.kind === "portal" ? portal.run("portal") : checkout.run(plan.tier))}
    >
      {running ? "Redirecting…" : action.label}
    </Button>
  );
}

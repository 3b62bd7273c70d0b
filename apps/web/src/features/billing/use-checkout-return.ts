import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "../../components/toast/toast-store";
import { logger } from "../../lib/telemetry/logger";
import { trackFunnelStep } from "../../lib/telemetry/telemetry";
import { refreshCredits } from "../shell/credit-sync";
import { BILLING_QUERY_KEY } from "./billing-api";

export const CHECKOUT_MESSAGES = {
  success: "Payment successful! Your account has been updated.",
  cancel: "Checkout cancelled. You have not been charged.",
} as const;

/**
 * With Stripe the webhook may land a moment after the customer is sent back, so the balance
 * and plan are asked for again a few times; the dev checkout fulfils before it redirects.
 */
const FOLLOW_UP_REFRESH_MS = [3_000, 10_000] as const;

/**
 * Handles the return from checkout: `?checkout=success` → a success toast and fresh numbers;
 * `?checkout=cancel` → an info toast. The parameter is then removed, so a reload or a bookmark
 * does not repeat the message.
 */
export function useCheckoutReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  // Outlive the URL clean-up below (which re-runs the effect); cleared when the page goes.
  const followUps = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(
    () => () => {
      for (const timer of followUps.current) clearTimeout(timer);
    },
    [],
  );

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const outcome = params.get("checkout");
    if (outcome !== "success" && outcome !== "cancel") return;
    if (handled.current === location.key) return;
    handled.current = location.key;

    if (outcome === "success") {
      toast({ title: CHECKOUT_MESSAGES.success, variant: "success" });
      trackFunnelStep("purchase");
      const refresh = () => {
        void queryClient.invalidateQueries({ queryKey: BILLING_QUERY_KEY });
        refreshCredits().catch((error: unknown) =>
          logger.warn("Could not refresh the profile after checkout", {
            cause: error instanceof Error ? error.message : String(error),
          }),
        );
      };
      refresh();
      followUps.current = FOLLOW_UP_REFRESH_MS.map((ms) => setTimeout(refresh, ms));
    } else {
      toast({ title: CHECKOUT_MESSAGES.cancel, variant: "info" });
    }
    params.delete("checkout");
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "" },
      { replace: true },
    );
  }, [location, navigate, queryClient]);
}

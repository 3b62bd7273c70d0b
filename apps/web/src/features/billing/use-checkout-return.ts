import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "../../components/toast/toast-store";
import { logger } from "../../lib/telemetry/logger";
import { trackFunnelStep } from "../../lib/telemetry/telemetry";
import { refreshCredits } from "../credits/credit-sync";
import { BILLING_QUERY_KEY, fetchCheckoutOutcome } from "./billing-api";
import { CHECKOUT_CONFIRMING_MESSAGE, checkoutOutcomeToast } from "./billing-format";

export const CHECKOUT_MESSAGES = {
  /** A return without a checkout id (an old link): nothing exact to say about it. */
  success: "Payment successful! Your account has been updated.",
  cancel: "Checkout cancelled. You have not been charged.",
} as const;

/**
 * With Stripe the webhook may land a moment after the customer is sent back, so the balance,
 * the plan and the checkout's outcome are asked for again a few times; the dev checkout
 * fulfils before it redirects.
 */
const FOLLOW_UP_REFRESH_MS = [1_000, 3_000, 10_000] as const;

/**
 * Handles the return from checkout: `?checkout=success&session_id=…` → a toast that says
 * what the payment added (from the server's record of that checkout, decision 032) and fresh
 * numbers; `?checkout=cancel` → an info toast. The parameters are then removed, so a reload
 * or a bookmark does not repeat the message.
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
      trackFunnelStep("purchase");
      const checkoutId = params.get("session_id");
      let told = false;
      const tell = async (last: boolean) => {
        if (told) return;
        if (!checkoutId) {
          told = true;
          toast({ title: CHECKOUT_MESSAGES.success, variant: "success" });
          return;
        }
        try {
          const said = checkoutOutcomeToast(await fetchCheckoutOutcome(checkoutId));
          if (said && !told) {
            told = true;
            toast(said);
            return;
          }
        } catch (error) {
          logger.warn("Could not read the checkout's outcome", {
            cause: error instanceof Error ? error.message : String(error),
          });
        }
        if (last && !told) {
          told = true;
          toast({ title: CHECKOUT_CONFIRMING_MESSAGE, variant: "info" });
        }
      };
      const refresh = (last: boolean) => {
        void tell(last);
        void queryClient.invalidateQueries({ queryKey: BILLING_QUERY_KEY });
        refreshCredits().catch((error: unknown) =>
          logger.warn("Could not refresh the profile after checkout", {
            cause: error instanceof Error ? error.message : String(error),
          }),
        );
      };
      refresh(false);
      followUps.current = FOLLOW_UP_REFRESH_MS.map((ms, i) =>
        setTimeout(() => refresh(i === FOLLOW_UP_REFRESH_MS.length - 1), ms),
      );
    } else {
      toast({ title: CHECKOUT_MESSAGES.cancel, variant: "info" });
    }
    params.delete("checkout");
    params.delete("session_id");
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "" },
      { replace: true },
    );
  }, [location, navigate, queryClient]);
}

import { openPortal } from "./billing-api";
import { type RedirectAction, useRedirectAction } from "./use-redirect-action";

/** Opens subscription management: Stripe's customer portal, or the dev one. */
export function usePortal(): RedirectAction<"portal"> {
  return useRedirectAction(
    (_: "portal") => openPortal().then((response) => response.url),
    "Could not open subscription management",
  );
}

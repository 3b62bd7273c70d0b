import type { Stripe } from "stripe";
import type { BillingConfig } from "../../config";

type StripeModule = typeof import("stripe");
let loading: Promise<StripeModule> | null = null;

/**
 * The SDK (~20 MB, 0.3 s to load) is imported on first use — a checkout or a webhook — so an
 * idle server, and every server that never sells anything, does not pay for it.
 */
export function loadStripe(): Promise<StripeModule> {
  loading ??= import("stripe");
  return loading;
}

/** The one Stripe API client; STRIPE_API_BASE points it at a local stand-in (tests). */
export async function createStripeClient(
  config: NonNullable<BillingConfig["stripe"]>,
): Promise<Stripe> {
  const { Stripe: StripeClient } = await loadStripe();
  const base = config.apiBase;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new StripeClient(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (protocol === "http" ? 80 : 443),
          protocol,
        }
      : {}),
  });
}

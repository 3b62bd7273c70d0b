import { Stripe } from "stripe";
import type { BillingConfig } from "../../config";

/** The one Stripe API client; STRIPE_API_BASE points it at a local stand-in (tests). */
export function createStripeClient(config: NonNullable<BillingConfig["stripe"]>): Stripe {
  const base = config.apiBase;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new Stripe(config.secretKey, {
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

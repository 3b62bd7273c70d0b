import { BILLING_ERROR_CODES } from "@cohort/contracts";
import type { Stripe } from "stripe";
import { AppError } from "../../platform/errors";
import type { CreditChange } from "../credits/credits-deps";
import { applyStripeEvent } from "./apply-stripe-event";
import type { BillingDeps } from "./billing-deps";
import { loadStripe } from "./stripe-client";

/** A signed event older than this is refused, so a captured delivery cannot be replayed. */
export const WEBHOOK_TOLERANCE_S = 300;

export interface WebhookOutcome {
  duplicate: boolean;
  eventId: string;
  outcome: string;
}

/**
 * The one way a payment takes effect, for Stripe and the dev checkout alike: verify the
 * signature on the raw body, record the event id (so a repeated delivery changes nothing),
 * apply it, all in one transaction; then tell the user's sockets about new credits.
 */
export async function handleWebhook(
  deps: BillingDeps,
  rawBody: Buffer | string,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const { Stripe: StripeSdk } = await loadStripe();
  let event: Stripe.Event;
  try {
    event = StripeSdk.webhooks.constructEvent(
      rawBody,
      signature ?? "",
      deps.webhookSecret,
      WEBHOOK_TOLERANCE_S,
    );
  } catch {
    throw new AppError(
      BILLING_ERROR_CODES.invalidSignature,
      400,
      "The webhook signature is missing, invalid or too old.",
    );
  }
  const changes: CreditChange[] = [];
  const result = await deps.db.transaction(async (tx) => {
    const recorded = await tx.query(
      `INSERT INTO billing_events (id, type, created, outcome) VALUES ($1, $2, $3, '')
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [event.id, event.type, event.created],
    );
    if (recorded.rowCount === 0) return { duplicate: true, outcome: "duplicate" };
    const outcome = await applyStripeEvent(tx, event, changes);
    await tx.query("UPDATE billing_events SET outcome = $2 WHERE id = $1", [event.id, outcome]);
    return { duplicate: false, outcome };
  });
  deps.log.info({ eventId: event.id, type: event.type, outcome: result.outcome }, "stripe event");
  if (changes.length > 0) deps.credits.publish(changes);
  return { ...result, eventId: event.id };
}

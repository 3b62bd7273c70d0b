import {
  BILLING_ERROR_CODES,
  ERROR_CODES,
  findCreditPack,
  findPlan,
  formatCredits,
  formatUsd,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { BillingDeps } from "./billing-deps";
import { CHECKOUT_COLUMNS, type CheckoutRow } from "./checkout-row";
import {
  type DevEvent,
  type DevSubscription,
  devId,
  devInvoicePaid,
  sendDevEvents,
} from "./dev-events";
import { renderDevPage } from "./dev-page";

/** The user's open-or-closed dev checkout; 404 for anyone else's, so ids cannot be probed. */
export async function findDevCheckout(
  db: Queryable,
  id: string,
  userId: string,
): Promise<CheckoutRow> {
  const { rows } = await db.query<CheckoutRow>(
    `SELECT ${CHECKOUT_COLUMNS} FROM billing_checkouts WHERE id = $1 AND mode = 'dev'`,
    [id],
  );
  const row = rows[0];
  if (!row || row.user_id !== userId) {
    throw new AppError(BILLING_ERROR_CODES.unknownCheckout, 404, "This checkout does not exist.");
  }
  return row;
}

export function devCustomerId(userId: string): string {
  return devId("cus", `customer:${userId}`);
}

function isExpired(row: CheckoutRow): boolean {
  return new Date(row.expires_at).getTime() <= Date.now();
}

/**
 * "Pays" a dev checkout: the events Stripe would send for it, through the webhook handler.
 * Paying twice sends the same event ids again, which change nothing.
 */
export async function payDevCheckout(deps: BillingDeps, row: CheckoutRow): Promise<void> {
  if (row.status === "completed") return;
  if (row.status !== "open" || isExpired(row)) {
    throw new AppError(ERROR_CODES.conflict, 409, "This checkout was cancelled or has expired.");
  }
  const customer = devCustomerId(row.user_id);
  const metadata: Record<string, string> =
    row.kind === "subscription"
      ? {
          user_id: row.user_id,
          kind: "subscription",
          tier: row.tier ?? "",
          billing_period: row.billing_period ?? "monthly",
        }
      : {
          user_id: row.user_id,
          kind: "credits",
          package_id: row.package_id ?? "",
          ...(row.workspace_id ? { workspace_id: row.workspace_id } : {}),
        };
  const subscription: DevSubscription | null =
    row.kind === "subscription"
      ? {
          id: devId("sub", row.id),
          customer,
          metadata,
          billingPeriod: row.billing_period ?? "monthly",
        }
      : null;
  const session: DevEvent = {
    id: devId("evt", `${row.id}:checkout.session.completed`),
    type: "checkout.session.completed",
    object: {
      id: row.id,
      object: "checkout.session",
      mode: subscription ? "subscription" : "payment",
      status: "complete",
      payment_status: "paid",
      client_reference_id: row.user_id,
      customer,
      subscription: subscription?.id ?? null,
      amount_total: row.amount_cents,
      currency: "usd",
      metadata,
      livemode: false,
    },
  };
  const events = [session];
  if (subscription) {
    const invoice = devId("in", `${row.id}:first`);
    const start = Math.floor(Date.now() / 1000);
    events.push(
      devInvoicePaid(subscription, invoice, start, row.amount_cents, "subscription_create"),
    );
  }
  await sendDevEvents(deps, events);
}

export async function cancelDevCheckout(db: Queryable, row: CheckoutRow): Promise<void> {
  await db.query(
    "UPDATE billing_checkouts SET status = 'canceled', completed_at = now() WHERE id = $1 AND status = 'open'",
    [row.id],
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the checkout buys, in words, for the page. */
function purchaseLine(row: CheckoutRow): string {
  if (row.kind === "subscription" && row.tier) {
    const plan = findPlan(row.tier);
    return `${plan?.name ?? row.tier} plan, billed ${row.billing_period ?? "monthly"} — ${formatCredits(row.credits)} credits per ${row.billing_period === "yearly" ? "year" : "month"}`;
  }
  const pack = row.package_id ? findCreditPack(row.package_id) : undefined;
  return `Credit pack: ${pack?.name ?? `${formatCredits(row.credits)} credits`}`;
}

/**
 * The hosted test checkout: a small self-contained page (no scripts, so the API's CSP holds)
 * whose buttons post a plain form back to us.
 */
export function renderDevCheckoutPage(row: CheckoutRow): string {
  const amount = formatUsd(row.amount_cents / 100);
  const base = `/api/billing/dev-checkout/${encodeURIComponent(row.id)}`;
  const open = row.status === "open" && !isExpired(row);
  const state =
    row.status === "completed"
      ? '<p class="note">This checkout has been paid.</p>'
      : open
        ? ""
        : '<p class="note">This checkout was cancelled or has expired.</p>';
  const buttons = open
    ? `<form method="post" action="${base}/pay">
        <button type="submit" class="pay">Pay ${amount}</button>
      </form>
      <form method="post" action="${base}/cancel">
        <button type="submit" class="cancel">Cancel</button>
      </form>`
    : `<p><a href="/billing">Back to billing</a></p>`;
  return renderDevPage({
    title: "Test checkout",
    banner: "Test payment page",
    widthRem: 28,
    css: `  .amount { font-size: 2rem; font-weight: 700; margin: .5rem 0 1.5rem; }
  form { display: inline; }
  button { font: inherit; border-radius: 8px; padding: .6rem 1.2rem; cursor: pointer; }
  .pay { background: #4f46e5; color: #fff; border: 0; }
  .cancel { background: #fff; color: #111; border: 1px solid #bbb; margin-left: .5rem; }
  .note { color: #555; }`,
    main: `  <h1>Cohort checkout</h1>
  <p>${escapeHtml(purchaseLine(row))}</p>
  <p class="amount">${amount}</p>
  ${state}
  ${buttons}
  <p class="note">Payments run on Cohort's built-in dev checkout because no Stripe key is configured.</p>`,
  });
}

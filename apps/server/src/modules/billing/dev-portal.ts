import { ERROR_CODES, findPlan, planPriceCents, TIER_LABELS } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { findSubscription, type SubscriptionRow } from "./apply-subscription-state";
import type { BillingDeps } from "./billing-deps";
import { devCustomerId } from "./dev-checkout";
import {
  type DevSubscription,
  devInvoicePaid,
  devSubscriptionEvent,
  randomDevId,
  sendDevEvents,
} from "./dev-events";
import { renderDevPage } from "./dev-page";

export const DEV_PORTAL_ACTIONS = ["cancel", "resume", "end", "renew"] as const;
export type DevPortalAction = (typeof DEV_PORTAL_ACTIONS)[number];

const seconds = (value: Date | string | null) =>
  value === null ? null : Math.floor(new Date(value).getTime() / 1000);

function asDevSubscription(row: SubscriptionRow): DevSubscription {
  return {
    id: row.stripe_subscription_id,
    customer: devCustomerId(row.user_id),
    billingPeriod: row.billing_period,
    metadata: {
      user_id: row.user_id,
      kind: "subscription",
      tier: row.tier,
      billing_period: row.billing_period,
    },
  };
}

/**
 * The dev stand-in for Stripe's customer portal: what Stripe would send when the customer
 * cancels at period end, resumes, when the period ends, or when the next period is paid.
 */
export async function runDevPortalAction(
  deps: BillingDeps,
  userId: string,
  action: DevPortalAction,
): Promise<void> {
  const row = await findSubscription(deps.db, { userId });
  if (!row || row.status === "canceled") {
    throw new AppError(ERROR_CODES.conflict, 409, "There is no subscription to change.");
  }
  const subscription = asDevSubscription(row);
  const periodEnd = seconds(row.current_period_end);
  switch (action) {
    case "cancel":
    case "resume":
      await sendDevEvents(deps, [
        devSubscriptionEvent(subscription, "customer.subscription.updated", {
          status: row.status,
          cancelAtPeriodEnd: action === "cancel",
          periodEnd,
        }),
      ]);
      return;
    case "end":
      await sendDevEvents(deps, [
        devSubscriptionEvent(subscription, "customer.subscription.deleted", {
          status: "canceled",
          cancelAtPeriodEnd: false,
          periodEnd,
        }),
      ]);
      return;
    case "renew": {
      const plan = findPlan(row.tier);
      if (!plan) throw new AppError(ERROR_CODES.conflict, 409, "This plan no longer exists.");
      await sendDevEvents(deps, [
        devInvoicePaid(
          subscription,
          randomDevId("in"),
          periodEnd ?? Math.floor(Date.now() / 1000),
          planPriceCents(plan, row.billing_period),
          "subscription_cycle",
        ),
      ]);
      return;
    }
  }
}

const button = (action: DevPortalAction, label: string) =>
  `<form method="post" action="/api/billing/dev-portal/${action}"><button type="submit">${label}</button></form>`;

export async function renderDevPortalPage(deps: BillingDeps, userId: string): Promise<string> {
  const row = await findSubscription(deps.db, { userId });
  const live = row && row.status !== "canceled";
  const end = row?.current_period_end ? new Date(row.current_period_end).toUTCString() : "—";
  const body = live
    ? `<p><strong>${TIER_LABELS[row.tier]}</strong>, billed ${row.billing_period} — ${row.status}${
        row.cancel_at_period_end ? `, ends ${end}` : `, renews ${end}`
      }</p>
      ${row.cancel_at_period_end ? button("resume", "Resume subscription") : button("cancel", "Cancel at period end")}
      ${button("renew", "Start next period now (test renewal)")}
      ${button("end", "End subscription now (as at period end)")}`
    : "<p>You have no active subscription.</p>";
  return renderDevPage({
    title: "Test billing portal",
    banner: "Test billing portal",
    widthRem: 32,
    css: `  form { margin: .5rem 0; }
  button { font: inherit; border-radius: 8px; padding: .5rem 1rem; cursor: pointer;
    background: #fff; border: 1px solid #bbb; }`,
    main: `  <h1>Manage subscription</h1>
  ${body}
  <p><a href="/billing">Back to billing</a></p>`,
  });
}

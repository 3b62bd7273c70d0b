import type { TBillingSummary, TUsageStats } from "@cohort/contracts";
import type { ReactNode } from "react";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { formatDate } from "../../lib/format/dates";
import { formatNumber, pluralize } from "../../lib/format/numbers";
import { creditLevel } from "../credits/credit-levels";
import { formatCost, formatTokens } from "./billing-format";
import { hasLiveSubscription } from "./plan-actions";
import { usePortal } from "./use-portal";

function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-ink-500 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-ink-950" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

const STATUS_LABELS: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment due",
  unpaid: "Unpaid",
  paused: "Paused",
  canceled: "Cancelled",
  incomplete: "Incomplete",
};

const balanceTone = { normal: undefined, low: "text-amber-800", critical: "text-red-800" } as const;

function renewalText(summary: TBillingSummary): string {
  const subscription = summary.subscription;
  if (summary.renews_at) return `Renews on ${formatDate(summary.renews_at)}`;
  if (subscription?.cancel_at_period_end && subscription.current_period_end) {
    return `Ends on ${formatDate(subscription.current_period_end)}`;
  }
  if (summary.tier !== "free" && !hasLiveSubscription(subscription)) return "No renewal";
  return summary.tier === "free" ? "No subscription" : "—";
}

function ManageSubscriptionButton() {
  const portal = usePortal();
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => portal.run("portal")}
      disabled={portal.busy}
      aria-busy={portal.busy || undefined}
    >
      {portal.busy ? "Opening…" : "Manage subscription"}
    </Button>
  );
}

/** The plan, its period and renewal, the balance and what is available of it. */
export function BillingOverview({ summary }: { summary: TBillingSummary }) {
  const period = summary.subscription?.billing_period ?? summary.default_billing_period;
  const level = creditLevel(summary.balance);
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-ink-900">Your plan and credits</h2>
        {summary.subscription ? <ManageSubscriptionButton /> : null}
      </div>
      <dl className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        <Fact label="Plan" testId="billing-tier">
          <span className="flex flex-wrap items-center gap-2">
            {summary.tier_label}
            {summary.cochat_access ? <Badge tone="success">CoChat Unlimited</Badge> : null}
          </span>
        </Fact>
        <Fact label="Billing" testId="billing-period">
          <span className="block">
            {summary.subscription
              ? `${period === "yearly" ? "Yearly" : "Monthly"} · ${STATUS_LABELS[summary.subscription.status] ?? summary.subscription.status}`
              : "—"}
          </span>
          <span className="block text-sm font-normal text-ink-600" data-testid="billing-renewal">
            {renewalText(summary)}
          </span>
        </Fact>
        <Fact label="Balance" testId="billing-balance">
          <span className={balanceTone[level]}>{formatNumber(summary.balance)}</span>{" "}
          <span className="text-sm font-normal text-ink-600">
            {pluralize(summary.balance, "credit")}
          </span>
        </Fact>
        <Fact label="Available" testId="billing-available">
          {formatNumber(summary.available)}{" "}
          <span className="text-sm font-normal text-ink-600">
            {pluralize(summary.available, "credit")}
          </span>
          {summary.held > 0 ? (
            <span className="block text-sm font-normal text-ink-600">
              {formatNumber(summary.held)} held for calls in progress
            </span>
          ) : null}
        </Fact>
      </dl>
      {summary.payments === "dev" ? (
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Payments use Cohort's built-in test checkout: no card is charged.
        </p>
      ) : null}
      {summary.payments === "off" ? (
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          Purchases are turned off: this server has no payment provider configured.
        </p>
      ) : null}
    </Card>
  );
}

/** The data model usage stats, all zeros when there is nothing (or the call failed). */
export function UsageAtAGlance({ stats }: { stats: TUsageStats }) {
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="usage-stats">
      <Fact label="Requests">{formatNumber(stats.total_requests)}</Fact>
      <Fact label="Tokens">{formatTokens(stats.total_tokens)}</Fact>
      <Fact label="Credits used">{formatNumber(stats.total_credits_used)}</Fact>
      <Fact label="Provider cost">{formatCost(stats.total_cost)}</Fact>
    </dl>
  );
}

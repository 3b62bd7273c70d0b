import type { TBillingPeriod, TBillingSummary, TPaidTier, TPlanOffer } from "@cohort/contracts";
import { useId, useState } from "react";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { cn } from "../../components/cn";
import { FeatureText } from "../../components/plan-card";
import { formatCredits } from "../../lib/format/numbers";
import { createCheckoutSession } from "./billing-api";
import { formatPrice } from "./billing-format";
import { planAction, yearlySavingMonths } from "./plan-actions";
import { usePortal } from "./use-portal";
import { type RedirectAction, useRedirectAction } from "./use-redirect-action";

/** The label a plan the public pricing page still calls 'Coming Soon' wears in the app. */
export const EARLY_ACCESS_LABEL = "Early access";

/** What that label means, said once under the plans (decision 057). */
export const EARLY_ACCESS_NOTE =
  'Early access means you can subscribe today, before the public pricing page opens the plan: the checkout, the monthly credits and CoChat work now. A feature marked "Not available yet" is not built and is not part of what you pay for; it comes at no extra cost.';

function PeriodToggle({
  value,
  onChange,
  savingMonths,
}: {
  value: TBillingPeriod;
  onChange: (period: TBillingPeriod) => void;
  savingMonths: number;
}) {
  const name = useId();
  const options: { value: TBillingPeriod; label: string }[] = [
    { value: "monthly", label: "Monthly" },
    { value: "yearly", label: "Yearly" },
  ];
  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">Billing period</legend>
      <div className="inline-flex rounded-lg bg-ink-100 p-1">
        {options.map((option) => (
          <label
            key={option.value}
            className={cn(
              "cursor-pointer rounded-md px-3 py-1.5 text-sm font-semibold transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600",
              value === option.value
                ? "bg-white text-ink-950 shadow-sm"
                : "text-ink-600 hover:text-ink-900",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
      {savingMonths > 0 ? (
        <span className="text-xs font-medium text-emerald-700">
          Yearly: {savingMonths} months free
        </span>
      ) : null}
    </fieldset>
  );
}

function PlanCard({
  plan,
  period,
  summary,
  checkout,
  portal,
}: {
  plan: TPlanOffer;
  period: TBillingPeriod;
  summary: TBillingSummary;
  checkout: RedirectAction<TPaidTier>;
  portal: RedirectAction<"portal">;
}) {
  const titleId = useId();
  const action = planAction(
    plan,
    { currentTier: summary.tier, subscription: summary.subscription, payments: summary.payments },
    period,
  );
  const yearly = period === "yearly";
  const price = yearly ? plan.price_yearly_usd : plan.price_monthly_usd;
  const credits = yearly ? plan.credits_yearly : plan.credits_monthly;
  const current = action.kind === "current";
  const busy = checkout.busy || portal.busy;
  const running = action.kind === "portal" ? portal.busy : checkout.isRunning(plan.tier);
  return (
    <Card
      tone={current ? "raised" : "default"}
      className="flex flex-col p-5"
      role="group"
      aria-labelledby={titleId}
      data-testid={`billing-plan-${plan.tier}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="text-base font-semibold text-ink-950">
          {plan.name}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          {current ? <Badge tone="success">Your plan</Badge> : null}
          {plan.badge ? <Badge tone="brand">{plan.badge}</Badge> : null}
          {plan.available ? null : <Badge tone="warning">{EARLY_ACCESS_LABEL}</Badge>}
        </div>
      </div>
      <p className="mt-3 flex items-baseline gap-1">
        <span className="text-3xl font-bold tracking-tight text-ink-950">{formatPrice(price)}</span>
        <span className="text-sm font-medium text-ink-600">{yearly ? "/year" : "/month"}</span>
      </p>
      <p className="mt-1 text-sm font-semibold text-brand-700">
        {formatCredits(credits)} {yearly ? "a year" : "a month"}
      </p>
      <ul className="mt-4 flex-1 space-y-1.5 text-sm text-ink-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <span aria-hidden="true" className="text-brand-600">
              ✓
            </span>
            <FeatureText feature={feature} />
          </li>
        ))}
      </ul>
      <div className="mt-5">
        {action.kind === "current" ? (
          <Button variant="outline" className="w-full" disabled>
            {action.label}
          </Button>
        ) : (
          <Button
            // Long labels ("Upgrade to Enterprise") wrap rather than overflow a narrow card.
            className="h-auto! min-h-10 w-full py-2 whitespace-normal!"
            variant={plan.highlighted ? "primary" : "secondary"}
            aria-label={action.ariaLabel}
            disabled={busy}
            aria-busy={running || undefined}
            onClick={() =>
              action.kind === "portal" ? portal.run("portal") : checkout.run(plan.tier)
            }
          >
            {running ? "Redirecting…" : action.label}
          </Button>
        )}
      </div>
    </Card>
  );
}

/**
 * The paid plans with the monthly/yearly toggle (monthly by default, the product limits). Each button
 * starts a checkout and leaves for its page.
 */
export function PlanPicker({ summary }: { summary: TBillingSummary }) {
  const [period, setPeriod] = useState<TBillingPeriod>(summary.default_billing_period);
  const checkout = useRedirectAction(
    (tier: TPaidTier) =>
      createCheckoutSession(tier, period).then((response) => response.checkout_url),
    "Could not start checkout",
  );
  const portal = usePortal();
  const saving = Math.max(0, ...summary.plans.map(yearlySavingMonths));
  return (
    <div className="grid gap-4">
      <PeriodToggle value={period} onChange={setPeriod} savingMonths={saving} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {summary.plans.map((plan) => (
          <PlanCard
            key={plan.tier}
            plan={plan}
            period={period}
            summary={summary}
            checkout={checkout}
            portal={portal}
          />
        ))}
      </div>
      {summary.plans.some((plan) => !plan.available) ? (
        <p data-testid="early-access-note" className="text-sm text-ink-600">
          {EARLY_ACCESS_NOTE}
        </p>
      ) : null}
    </div>
  );
}

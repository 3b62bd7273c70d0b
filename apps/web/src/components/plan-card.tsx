import { formatUsd, isPlannedFeature } from "@cohort/contracts";
import type { ReactNode } from "react";
import { Badge } from "./badge";
import { Card } from "./card";
import { cn } from "./cn";

export function Price({
  plan,
  large = true,
}: {
  plan: Pick<PlanCardContent, "priceCentsMonthly">;
  large?: boolean;
}) {
  return (
    <p className="flex items-baseline gap-1">
      <span
        className={cn("font-bold tracking-tight text-ink-950", large ? "text-4xl" : "text-2xl")}
      >
        {formatUsd(plan.priceCentsMonthly / 100)}
      </span>
      <span className="text-sm font-medium text-ink-600">/month</span>
    </p>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600">
      <path
        d="M5 10.5l3.2 3.2L15 7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** What a plan card shows: a plan of the product limits, or the Free plan of the pricing page. */
export interface PlanCardContent {
  /** For ids: "free", "starter", "pro-plus"… */
  key: string;
  name: string;
  priceCentsMonthly: number;
  /** "1,000 credits", or the Free plan's welcome credits. */
  creditsLine: string;
  features: readonly string[];
  badge?: string | undefined;
  highlighted?: boolean | undefined;
}

export function PlanCard({ plan, cta }: { plan: PlanCardContent; cta: ReactNode }) {
  const titleId = `plan-${plan.key}`;
  return (
    <Card
      tone={plan.highlighted ? "raised" : "default"}
      className="flex flex-col p-6 sm:p-8"
      role="group"
      aria-labelledby={titleId}
      data-testid={`plan-${plan.name}`}
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id={titleId} className="text-lg font-semibold text-ink-950">
          {plan.name}
        </h3>
        {plan.badge ? <Badge tone="brand">{plan.badge}</Badge> : null}
      </div>
      <div className="mt-5">
        <Price plan={plan} />
        <p className="mt-2 text-base font-semibold text-brand-700">{plan.creditsLine}</p>
      </div>
      <ul className="mt-6 flex-1 space-y-3 text-sm text-ink-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <CheckIcon />
            <FeatureText feature={feature} />
          </li>
        ))}
      </ul>
      <div className="mt-8">{cta}</div>
    </Card>
  );
}

export const COMING_SOON_TAG = "Not available yet";

/** A plan feature, tagged when the product does not have it yet (contracts' PLANNED_FEATURES). */
export function FeatureText({ feature }: { feature: string }) {
  if (!isPlannedFeature(feature)) return <span>{feature}</span>;
  return (
    <span>
      {feature}{" "}
      <span
        data-testid="planned-feature"
        className="ml-1 inline-block rounded-full bg-ink-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-ink-600"
      >
        {COMING_SOON_TAG}
      </span>
    </span>
  );
}

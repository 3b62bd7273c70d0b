import {
  COCHAT_MESSAGES,
  formatUsd,
  hasCoChatAccess,
  PLANS,
  TIER_LABELS,
  type TSubscriptionTier,
} from "@cohort/contracts";
import { Link } from "react-router";
import { Badge } from "../../components/badge";
import { buttonClasses } from "../../components/button";
import { Card } from "../../components/card";

const UNLOCKING_PLANS = PLANS.filter((plan) => hasCoChatAccess(plan.tier));

/** The roles: free and starter users see 'CoChat Locked' and the way to unlock it. */
export function CochatLocked({ tier }: { tier: TSubscriptionTier }) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col px-4 py-12 sm:px-6 lg:py-20">
      <Card className="overflow-hidden p-0">
        <div className="bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-8 text-white sm:px-8">
          <div className="flex items-center gap-3">
            <span
              aria-hidden="true"
              className="flex size-11 items-center justify-center rounded-xl bg-white/15 ring-1 ring-white/25"
            >
              <svg viewBox="0 0 24 24" className="size-6" fill="none" aria-hidden="true">
                <rect
                  x="5"
                  y="10.5"
                  width="14"
                  height="10"
                  rx="2"
                  stroke="currentColor"
                  strokeWidth="1.75"
                />
                <path
                  d="M8.5 10.5V8a3.5 3.5 0 017 0v2.5"
                  stroke="currentColor"
                  strokeWidth="1.75"
                  strokeLinecap="round"
                />
              </svg>
            </span>
            <div>
              <h1 className="text-2xl font-bold tracking-tight">{COCHAT_MESSAGES.lockedTitle}</h1>
              <p className="text-sm text-brand-100">You're on the {TIER_LABELS[tier]} plan.</p>
            </div>
          </div>
        </div>
        <div className="grid gap-5 px-6 py-6 sm:px-8">
          <p className="text-sm leading-6 text-ink-700">
            CoChat is a fast, single-model chat with its own model list: talk things through with
            CoChat, CoQuick, CoReason or the GPT, Claude and Gemini families, with answers streamed
            as they are written. It comes with{" "}
            <strong className="text-ink-950">CoChat Unlimited</strong> in these plans:
          </p>
          <ul className="grid gap-3 sm:grid-cols-3">
            {UNLOCKING_PLANS.map((plan) => (
              <li key={plan.tier} className="rounded-xl border border-ink-200 bg-ink-50 px-4 py-3">
                <p className="text-sm font-semibold text-ink-950">{plan.name}</p>
                <p className="text-xs text-ink-600">
                  {formatUsd(plan.priceCentsMonthly / 100)} / month
                </p>
                <Badge tone="success" className="mt-2">
                  {COCHAT_MESSAGES.unlimited}
                </Badge>
              </li>
            ))}
          </ul>
          <div>
            <Link to="/pricing" className={buttonClasses({ size: "lg" })}>
              {COCHAT_MESSAGES.upgradeLink}
            </Link>
          </div>
        </div>
      </Card>
    </div>
  );
}

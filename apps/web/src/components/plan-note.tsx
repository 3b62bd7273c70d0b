import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "./cn";

/** The look of a link inside a PlanNote. */
export const PLAN_NOTE_LINK = "font-semibold text-brand-700 underline";

/** What a lower plan sees in place of a Pro+ feature (templates, memory): a tinted note. */
export function PlanNote({
  testId,
  className,
  children,
}: {
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        className,
        "rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-ink-800",
      )}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

/** A PlanNote's way out: the Billing page. */
export function UpgradeLink() {
  return (
    <Link to="/billing" className={PLAN_NOTE_LINK}>
      Upgrade on the Billing page
    </Link>
  );
}

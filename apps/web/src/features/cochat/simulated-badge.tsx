import { SIMULATED_BADGE } from "@cohort/contracts";
import { cn } from "../../components/cn";

/** Shown wherever a model name is shown while the built-in simulator answers for it. */
export function SimulatedBadge({ className }: { className?: string }) {
  return (
    <span
      data-testid="simulated-badge"
      title="No provider key is configured for this model: the built-in simulator answers."
      className={cn(
        "inline-flex items-center rounded-md bg-amber-50 px-1.5 py-0.5 text-[11px] font-semibold text-amber-900 ring-1 ring-amber-200 ring-inset",
        className,
      )}
    >
      {SIMULATED_BADGE}
    </span>
  );
}

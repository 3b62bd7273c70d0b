import { STEERING_MESSAGES } from "@cohort/contracts";
import { useId } from "react";

/**
 * "Review the plan first" (decision 069): the session's runs stop after planning, with the
 * plan editable, until the user starts them. Off by default; a template can turn it on.
 */
export function ReviewPlanField({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3 rounded-2xl border border-ink-200 bg-white p-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 size-4 shrink-0 rounded border-ink-300 accent-brand-600"
        data-testid="review-plan"
      />
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-semibold text-ink-950">
          {STEERING_MESSAGES.reviewPlan}
        </label>
        <p id={`${id}-hint`} className="mt-0.5 text-xs leading-5 text-ink-600">
          Each run stops once the coordinator has planned it: reorder, remove or add steps, change a
          step's role or model, then Start. Only the planning is charged until then.
        </p>
      </div>
    </div>
  );
}

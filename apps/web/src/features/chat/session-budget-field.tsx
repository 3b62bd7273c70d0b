import { SESSION_BUDGET_MAX } from "@cohort/contracts";
import type { ReactNode } from "react";
import { Field } from "../../components/form";

/**
 * A session's credit budget in New session and Edit session: a number of credits kept to the
 * hundredth, empty for no cap (read with parseSessionBudget).
 */
export function SessionBudgetField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint: ReactNode;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <Field
      label={label}
      type="number"
      inputMode="decimal"
      min={0.01}
      step={0.01}
      max={SESSION_BUDGET_MAX}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={hint}
      placeholder="No cap"
    />
  );
}

import { STEERING_MESSAGES } from "@cohort/contracts";
import { CheckboxField } from "../../components/checkbox-field";

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
  return (
    <CheckboxField
      boxed
      testId="review-plan"
      label={STEERING_MESSAGES.reviewPlan}
      hint="Each run stops once the coordinator has planned it: reorder, remove or add steps, change a step's role or model, then Start. Only the planning is charged until then."
      checked={checked}
      onChange={onChange}
    />
  );
}

import { useId } from "react";
import { cn } from "./cn";

/**
 * A labelled checkbox with a one-line explanation under its label (read by screen readers as
 * the box's description). `boxed` sets it in a card of its own, for a setting that stands
 * apart in a form. `asSwitch` announces it as an on/off switch, for a setting that takes
 * effect at once rather than with a form's Save.
 */
export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  boxed = false,
  asSwitch = false,
  disabled,
  testId,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange(checked: boolean): void;
  boxed?: boolean;
  asSwitch?: boolean;
  disabled?: boolean;
  testId?: string;
}) {
  const id = useId();
  return (
    <div
      className={cn(
        "flex items-start gap-3",
        boxed && "rounded-2xl border border-ink-200 bg-white p-3",
      )}
    >
      <input
        id={id}
        type="checkbox"
        role={asSwitch ? "switch" : undefined}
        aria-checked={asSwitch ? checked : undefined}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 size-4 shrink-0 rounded border-ink-300 accent-brand-600"
        data-testid={testId}
      />
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-semibold text-ink-900">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="mt-0.5 text-xs leading-5 text-ink-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

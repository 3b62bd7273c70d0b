import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from "react";
import { Button } from "./button";
import { cn } from "./cn";

export const inputClasses =
  "block w-full rounded-lg border border-ink-300 bg-white px-3 py-2.5 text-sm text-ink-950 shadow-xs placeholder:text-ink-400 focus:border-brand-500 focus:outline-2 focus:outline-offset-0 focus:outline-brand-500/30 disabled:bg-ink-50 disabled:text-ink-500 aria-invalid:border-red-400";

function FieldLabel({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="block text-sm font-medium text-ink-800">
      {children}
    </label>
  );
}

/** A control's hint, under it; nothing when there is none. */
function FieldHint({ id, children }: { id: string; children?: ReactNode }) {
  return children ? (
    <p id={id} className="mt-1.5 text-xs text-ink-500">
      {children}
    </p>
  ) : null;
}

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  /** Shown below the input and announced; also marks the input invalid. */
  error?: string | null;
  /** Content placed inside the input box on the right (e.g. a show/hide toggle). */
  trailing?: ReactNode;
}

/** A labelled input with an optional hint and error, wired up for assistive technology. */
export function Field({ label, hint, error, trailing, id, className, ...props }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      <div className="relative mt-1.5">
        <input
          id={inputId}
          aria-describedby={describedBy || undefined}
          aria-invalid={error ? true : undefined}
          className={cn(inputClasses, trailing ? "pr-20" : undefined)}
          {...props}
        />
        {trailing ? (
          <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div>
        ) : null}
      </div>
      <FieldHint id={hintId}>{hint}</FieldHint>
      {error ? (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: ReactNode;
  hint?: ReactNode;
  /** "code": small monospace text (a document, a configuration); "prose": a description. */
  text?: "code" | "prose";
}

/** A labelled multi-line input with an optional hint. */
export function TextAreaField({
  label,
  hint,
  text = "code",
  id,
  className,
  ...props
}: TextAreaFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      <textarea
        id={inputId}
        aria-describedby={hint ? `${inputId}-hint` : undefined}
        className={cn(
          inputClasses,
          "mt-1.5",
          text === "code" ? "font-mono text-xs leading-5" : "resize-y",
        )}
        {...props}
      />
      <FieldHint id={`${inputId}-hint`}>{hint}</FieldHint>
    </div>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: ReactNode;
  /** Shown below the select and read as its description. */
  hint?: ReactNode;
  /** The options. */
  children: ReactNode;
}

/** A labelled select with an optional hint, in the look of Field. */
export function SelectField({ label, hint, id, className, children, ...props }: SelectFieldProps) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <div className={className}>
      <FieldLabel htmlFor={selectId}>{label}</FieldLabel>
      <select
        id={selectId}
        aria-describedby={hint ? `${selectId}-hint` : undefined}
        className={cn(inputClasses, "mt-1.5")}
        {...props}
      >
        {children}
      </select>
      <FieldHint id={`${selectId}-hint`}>{hint}</FieldHint>
    </div>
  );
}

export type PasswordFieldProps = Omit<FieldProps, "type" | "trailing">;

/** A password input with the show/hide toggle of the route table. */
export function PasswordField(props: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? "text" : "password"}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-label={visible ? "Hide password" : "Show password"}
          className="rounded-md px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50"
        >
          {visible ? "Hide" : "Show"}
        </button>
      }
    />
  );
}

/** A form's Cancel and submit buttons, at its end; `children` name the submit button. */
export function FormButtons({
  onCancel,
  disabled,
  children,
}: {
  onCancel(): void;
  /** Whether the submit button is disabled (Cancel never is). */
  disabled: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={disabled}>
        {children}
      </Button>
    </div>
  );
}

/** A polite live region for form-level messages (errors and confirmations). */
export function FormMessage({
  tone = "error",
  children,
}: {
  tone?: "error" | "success" | "info";
  children?: ReactNode;
}) {
  const tones = {
    error: "border-red-200 bg-red-50 text-red-800",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-brand-200 bg-brand-50 text-brand-900",
  } as const;
  return (
    <div aria-live="polite" aria-atomic="true">
      {children ? (
        <p className={cn("rounded-lg border px-3 py-2.5 text-sm", tones[tone])}>{children}</p>
      ) : null}
    </div>
  );
}

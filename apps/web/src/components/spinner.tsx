import { cn } from "./cn";

export interface SpinnerProps {
  /** Read by screen readers; the spinner itself is decorative. */
  label?: string;
  size?: "sm" | "md" | "lg";
  className?: string;
}

const sizes = { sm: "size-4 border-2", md: "size-6 border-2", lg: "size-10 border-[3px]" } as const;

export function Spinner({ label = "Loading…", size = "md", className }: SpinnerProps) {
  return (
    <span role="status" className={cn("inline-flex items-center", className)}>
      <span
        aria-hidden="true"
        className={cn("animate-spin rounded-full border-brand-100 border-t-brand-600", sizes[size])}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** Fills the content area while a screen's code loads. */
export function PageSpinner({ label = "Loading page…" }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner size="lg" label={label} />
    </div>
  );
}

import { useId } from "react";
import { cn } from "./cn";

/** The Cohort mark: three members of a team joined into one. */
export function LogoMark({ className }: { className?: string }) {
  const gradientId = useId();
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn("size-8 shrink-0", className)}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path
        d="M11 12 21 12 16 21Z"
        fill="none"
        stroke="#fff"
        strokeOpacity=".55"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
      <circle cx="11" cy="12" r="3.2" fill="#fff" />
      <circle cx="21" cy="12" r="3.2" fill="#fff" fillOpacity=".85" />
      <circle cx="16" cy="21" r="3.2" fill="#fff" fillOpacity=".7" />
    </svg>
  );
}

export function Logo({ inverse = false, className }: { inverse?: boolean; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span
        className={cn("text-lg font-bold tracking-tight", inverse ? "text-white" : "text-ink-950")}
      >
        Cohort
      </span>
    </span>
  );
}

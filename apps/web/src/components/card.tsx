import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  /** Raised cards get a ring in the brand colour, e.g. a recommended plan. */
  tone?: "default" | "muted" | "raised";
}

const tones = {
  default: "border border-ink-200 bg-white shadow-xs",
  muted: "border border-ink-200 bg-ink-50",
  raised: "border border-brand-300 bg-white shadow-lg shadow-brand-900/10 ring-1 ring-brand-300",
} as const;

export function Card({ tone = "default", className, ...props }: CardProps) {
  return <div className={cn("rounded-2xl", tones[tone], className)} {...props} />;
}

import type { ReactNode } from "react";
import { cn } from "../cn";

export interface SectionHeadingProps {
  id?: string;
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  align?: "left" | "center";
  inverse?: boolean;
}

export function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
  align = "left",
  inverse = false,
}: SectionHeadingProps) {
  return (
    <div className={cn("max-w-2xl", align === "center" && "mx-auto text-center")}>
      {eyebrow ? (
        <p className={cn("text-sm font-semibold", inverse ? "text-brand-300" : "text-brand-700")}>
          {eyebrow}
        </p>
      ) : null}
      <h2
        id={id}
        className={cn(
          "mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl",
          inverse ? "text-white" : "text-ink-950",
        )}
      >
        {title}
      </h2>
      {lead ? (
        <p className={cn("mt-4 text-lg leading-8", inverse ? "text-ink-300" : "text-ink-600")}>
          {lead}
        </p>
      ) : null}
    </div>
  );
}

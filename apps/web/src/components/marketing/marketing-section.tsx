import type { ReactNode } from "react";
import { cn } from "../cn";
import { Container } from "../container";

/**
 * A public page's band between the header and the closing call to action: a section named by its
 * heading (`id`), white or grey, around one container. The grey bands alternate with white ones.
 */
export function MarketingSection({
  id,
  tone = "white",
  className,
  children,
}: {
  /** The id of the section's heading, which names it. */
  id: string;
  tone?: "white" | "grey";
  /** The container's classes (a grid of columns). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn(tone === "grey" && "border-y border-ink-200 bg-ink-50", "py-16 sm:py-20")}
    >
      <Container className={className}>{children}</Container>
    </section>
  );
}

/** A marketing section's heading (its id names the section). */
export function MarketingSectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={id} className="text-2xl font-bold tracking-tight text-ink-950">
      {children}
    </h2>
  );
}

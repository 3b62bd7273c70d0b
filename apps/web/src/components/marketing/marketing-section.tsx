import type { ReactNode } from "react";
import { cn } from "../cn";
import { Container, type ContainerProps } from "../container";

const tones = {
  white: "",
  grey: "border-y border-ink-200 bg-ink-50",
  dark: "bg-ink-950",
} as const;

/**
 * A public page's band between the header and the closing call to action: a section named by its
 * heading (`id`), white, grey or dark, around one container. The grey bands alternate with white
 * ones; the landing page's bands (`spacing="landing"`) have more room than the other pages'.
 */
export function MarketingSection({
  id,
  tone = "white",
  spacing = "page",
  anchor,
  width,
  className,
  children,
}: {
  /** The id of the section's heading, which names it. */
  id: string;
  tone?: keyof typeof tones;
  spacing?: "page" | "landing";
  /** The section's own id, for links to it (/#how-it-works). */
  anchor?: string;
  width?: ContainerProps["size"];
  /** The container's classes (a grid of columns). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      id={anchor}
      aria-labelledby={id}
      className={cn(tones[tone], spacing === "landing" ? "py-20 sm:py-24" : "py-16 sm:py-20")}
    >
      <Container size={width} className={className}>
        {children}
      </Container>
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

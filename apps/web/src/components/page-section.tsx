import { type ReactNode, useId } from "react";
import { cn } from "./cn";

/**
 * One titled part of a screen (Billing, Documents): a region named by its heading, with an
 * optional lead under the title and an action beside it.
 */
export function PageSection({
  title,
  lead,
  action,
  children,
  testId,
  className,
}: {
  title: string;
  lead?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** The space between the heading and the parts (a gap class). */
  className?: string;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={cn("grid", className)} data-testid={testId}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-ink-950">
            {title}
          </h2>
          {lead ? <p className="mt-0.5 text-sm text-ink-600">{lead}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

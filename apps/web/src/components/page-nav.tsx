import type { ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

/**
 * Previous / next through the pages of a long list, with what the caller says about where the
 * reader is (`children`, before the buttons). Not the version pager (`pager.tsx`), which
 * steps between the versions of one thing.
 */
export function PageNav({
  label,
  page,
  pages,
  onPage,
  className,
  children,
}: {
  /** Names the navigation landmark: "Pages", "Credit history pages". */
  label: string;
  page: number;
  pages: number;
  onPage(page: number): void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <nav aria-label={label} className={cn("flex items-center justify-between gap-3", className)}>
      {children}
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}

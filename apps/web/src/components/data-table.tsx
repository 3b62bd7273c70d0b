import type { ReactNode } from "react";
import { cn } from "./cn";

/** A header cell's label, or the label of a right-aligned (figures) column. */
export type DataColumn = string | { label: string; end: true };

function columnLabel(column: DataColumn): string {
  return typeof column === "string" ? column : column.label;
}

/** One header cell per column, each with the same classes (figures' columns right-aligned). */
export function HeaderCells({
  columns,
  className,
}: {
  columns: readonly DataColumn[];
  className: string;
}) {
  return columns.map((column) => (
    <th
      key={columnLabel(column)}
      scope="col"
      className={cn(className, typeof column !== "string" && "text-right")}
    >
      {columnLabel(column)}
    </th>
  ));
}

/**
 * The app's data tables (admin lists, a team's usage): scrolls sideways on a narrow screen, an
 * optional caption for screen readers, one header cell per column; the rows are the caller's.
 */
export function DataTable({
  testId,
  caption,
  columns,
  className = "mt-3",
  bodyClassName = "divide-y divide-ink-100",
  children,
}: {
  testId?: string;
  caption?: string;
  columns: readonly DataColumn[];
  /** The scrolling wrapper's spacing. */
  className?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn(className, "overflow-x-auto")}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="text-xs text-ink-600">
          <tr>
            {columns.map((column, index) => {
              const label = columnLabel(column);
              return (
                <th
                  key={label}
                  scope="col"
                  className={cn(
                    "py-2 font-medium",
                    index < columns.length - 1 && "pr-3",
                    typeof column !== "string" && "text-right",
                  )}
                >
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className={bodyClassName}>{children}</tbody>
      </table>
    </div>
  );
}

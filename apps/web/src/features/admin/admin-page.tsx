import type { ReactNode } from "react";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { formatNumber } from "../../lib/format/numbers";

/** The frame of every admin screen: its title (also the document's) and a short description. */
export function AdminPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useDocumentMeta({ title: `Admin · ${title}`, noindex: true });
  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink-950">{title}</h1>
          {description ? <p className="mt-1 text-sm text-ink-600">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

/** Loading and failure states of an admin query, said the same way everywhere. */
export function QueryState({ isError, label }: { isError: boolean; label: string }) {
  return isError ? (
    <p role="alert" className="text-sm text-red-700">
      Could not load {label}. Please try again.
    </p>
  ) : (
    <p className="text-sm text-ink-600" aria-live="polite">
      Loading {label}…
    </p>
  );
}

/** A duration in the admin's tables: whole milliseconds, or a dash when there is none. */
export const formatMilliseconds = (value: number | null) =>
  value === null ? "—" : `${formatNumber(value, 0)} ms`;

/** The first cell of an admin table's row, naming what the row is about (an id, a path). */
export function AdminRowHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="row" className="py-2 pr-3 font-mono text-xs font-normal text-ink-900">
      {children}
    </th>
  );
}

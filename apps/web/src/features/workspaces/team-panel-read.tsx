import type { ReactNode } from "react";
import { Spinner } from "../../components/spinner";

/**
 * One read on the team screen (members, usage, audit log, share links): a spinner while it
 * loads, a quiet sentence if it failed, `empty` when `isEmpty` says there is nothing, else
 * what `children` makes of the data. `what` names the read: "the audit log".
 */
export function TeamPanelRead<T>({
  read,
  what,
  empty,
  isEmpty,
  children,
}: {
  read: { data: T | undefined; isPending: boolean; isError: boolean };
  what: string;
  empty?: string;
  isEmpty?(data: T): boolean;
  children(data: T): ReactNode;
}) {
  if (read.isPending) return <Spinner label={`Loading ${what}`} />;
  if (read.isError || read.data === undefined) {
    return (
      <p className="text-sm text-ink-600">
        {what.charAt(0).toUpperCase() + what.slice(1)} could not be loaded just now.
      </p>
    );
  }
  if (isEmpty?.(read.data)) return <p className="text-xs text-ink-500">{empty}</p>;
  return children(read.data);
}

import type { ReactNode } from "react";
import { Spinner } from "../../components/spinner";

interface Read<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * One read on the team screen (members, usage, audit log, share links): a spinner while it
 * loads, a quiet sentence if it failed, else what `children` make of the data. `what` names
 * the read: "the audit log".
 */
export function TeamPanelRead<T>({
  read,
  what,
  children,
}: {
  read: Read<T>;
  what: string;
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
  return children(read.data);
}

/** A TeamPanelRead of a list: the `empty` sentence when `items` of the data has none. */
export function TeamPanelList<T, Item>({
  read,
  what,
  items,
  empty,
  children,
}: {
  read: Read<T>;
  what: string;
  items(data: T): readonly Item[];
  empty: string;
  children(items: readonly Item[]): ReactNode;
}) {
  return (
    <TeamPanelRead read={read} what={what}>
      {(data) => {
        const list = items(data);
        return list.length === 0 ? <p className="text-xs text-ink-500">{empty}</p> : children(list);
      }}
    </TeamPanelRead>
  );
}

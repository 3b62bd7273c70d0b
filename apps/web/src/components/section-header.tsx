import { type ReactNode, useId } from "react";
import { Card } from "./card";
import { Spinner } from "./spinner";

/**
 * A settings card's heading and the sentence under it (Profile, Provider keys, Your data), with
 * an optional action beside them: one look for every card on the settings pages.
 */
export function SectionHeader({
  id,
  title,
  lead,
  action,
}: {
  /** The heading's id, for the card's aria-labelledby. */
  id?: string;
  title: ReactNode;
  lead?: ReactNode;
  /** A control at the heading's right (a switch, an add button); wraps under it when narrow. */
  action?: ReactNode;
}) {
  const heading = (
    <>
      <h2 id={id} className="text-base font-semibold text-ink-950">
        {title}
      </h2>
      {lead ? <p className="mt-1 text-sm text-ink-600">{lead}</p> : null}
    </>
  );
  if (!action) return heading;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0 max-w-xl">{heading}</div>
      {action}
    </div>
  );
}

/**
 * A settings card: a region named by its SectionHeader, then its content. `id` is the heading's
 * id when something else points at it (a form's aria-labelledby); `anchor` is the card's own id
 * (/settings#templates), and a card scrolled to stops a little below the window's top.
 */
export function SectionCard({
  id,
  anchor,
  title,
  lead,
  action,
  testId,
  children,
}: {
  id?: string;
  anchor?: string;
  title: ReactNode;
  lead?: ReactNode;
  action?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const headingId = id ?? generated;
  return (
    <Card
      id={anchor}
      role="region"
      aria-labelledby={headingId}
      className="scroll-mt-6 p-5 sm:p-6"
      data-testid={testId}
    >
      <SectionHeader id={headingId} title={title} lead={lead} action={action} />
      {children}
    </Card>
  );
}

/** A card's content while it loads (a settings card, an admin list). */
export function SectionLoading({ label }: { label: string }) {
  return (
    <div className="py-6">
      <Spinner label={label} />
    </div>
  );
}

/** A card's content when it could not be read: the sentence, announced. */
export function SectionLoadError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mt-4 text-sm text-red-700">
      {children}
    </p>
  );
}

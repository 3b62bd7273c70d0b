import type { ReactNode } from "react";
import { cn } from "../../components/cn";

/** What a set of versions shows when no single tab is chosen. */
export const SIDE_BY_SIDE = "compare";

/**
 * The tab bar over a step's or an answer's versions: a heading, one tab per version, and
 * "Side by side". `shown` is the chosen version's id, or null when they are side by side.
 */
export function VersionTabs({
  label,
  heading,
  tabs,
  shown,
  onShow,
}: {
  label: string;
  heading: ReactNode;
  tabs: readonly { id: string; title: ReactNode }[];
  shown: string | null;
  onShow(id: string): void;
}) {
  const tab = (active: boolean) =>
    cn(
      "rounded-lg px-2.5 py-1 text-xs font-semibold",
      active ? "bg-ink-900 text-white" : "text-ink-700 hover:bg-ink-100",
    );
  return (
    <fieldset className="flex flex-wrap items-center gap-1 border-0 p-0" aria-label={label}>
      <span className="px-1 text-xs font-semibold text-ink-600">{heading}</span>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          className={tab(shown === t.id)}
          aria-pressed={shown === t.id}
          onClick={() => onShow(t.id)}
        >
          {t.title}
        </button>
      ))}
      <button
        type="button"
        className={tab(shown === null)}
        aria-pressed={shown === null}
        onClick={() => onShow(SIDE_BY_SIDE)}
      >
        Side by side
      </button>
    </fieldset>
  );
}

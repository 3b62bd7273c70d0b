import { type KeyboardEvent, type ReactNode, useId, useRef } from "react";
import { cn } from "../../components/cn";
import { CODE_HEADER } from "../../components/markdown/code-block";

export interface TabSpec {
  id: string;
  label: string;
  panel: () => ReactNode;
}

/**
 * Tabs after the WAI-ARIA pattern: one tab stop, arrow keys (and Home, End) move between the
 * tabs and show theirs; the panel follows in the tab order. Panels are drawn only when shown,
 * so a preview's libraries load only when its tab is opened.
 */
export function ArtifactTabs({
  label,
  tabs,
  selected,
  onSelect,
  actions,
  tone = "dark",
  panelClassName,
}: {
  label: string;
  tabs: readonly TabSpec[];
  selected: string;
  onSelect(id: string): void;
  actions?: ReactNode;
  tone?: "dark" | "light";
  panelClassName?: string;
}) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id);
    refs.current[next]?.focus();
  };
  return (
    <>
      <div
        className={
          tone === "dark"
            ? CODE_HEADER
            : "flex flex-wrap items-center justify-between gap-2 border-b border-ink-200 px-3 py-1.5"
        }
      >
        <div role="tablist" aria-label={label} className="flex items-center gap-1">
          {tabs.map((tab, index) => {
            const active = tab.id === current?.id;
            return (
              <button
                key={tab.id}
                ref={(element) => {
                  refs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${base}-tab-${tab.id}`}
                aria-selected={active}
                aria-controls={`${base}-panel-${tab.id}`}
                tabIndex={active ? 0 : -1}
                onClick={() => onSelect(tab.id)}
                onKeyDown={(event) => onKeyDown(event, index)}
                className={cn(
                  "rounded-md px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-brand-400",
                  tone === "dark"
                    ? active
                      ? "bg-white text-ink-950"
                      : "text-ink-200 hover:bg-white/10 hover:text-white"
                    : active
                      ? "bg-ink-900 text-white"
                      : "text-ink-700 hover:bg-ink-100",
                )}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-1">{actions}</div> : null}
      </div>
      {current ? (
        <div
          role="tabpanel"
          id={`${base}-panel-${current.id}`}
          aria-labelledby={`${base}-tab-${current.id}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the tab pattern puts the panel in the tab order
          tabIndex={0}
          className={cn(
            "outline-none focus-visible:ring-2 focus-visible:ring-brand-400 focus-visible:ring-inset",
            panelClassName,
          )}
          data-testid={`artifact-panel-${current.id}`}
        >
          {current.panel()}
        </div>
      ) : null}
    </>
  );
}

import { useEffect, useRef } from "react";
import { Button } from "../../components/button";
import { formatCount } from "../../lib/format/numbers";
import type { EarlierRuns } from "./use-conversation";

/** How close to the viewport the top of the conversation comes before earlier runs load. */
const LOAD_MARGIN_PX = 200;

/**
 * Above the turns on screen in a long session (decision 077): how many earlier turns are not
 * loaded, a button that loads them, and the same on its own when the reader scrolls up to it.
 * It is left out of scroll anchoring, so the turns it adds above keep the reader's place.
 */
export function EarlierRunsLoader({
  hiddenTurns,
  earlier,
  onLoad,
}: {
  hiddenTurns: number;
  earlier: EarlierRuns;
  onLoad(): void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  const { before, loading, error } = earlier;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `before` watches again after a page
  useEffect(() => {
    const node = ref.current;
    if (!node || loading || error !== null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoad();
      },
      { rootMargin: `${LOAD_MARGIN_PX}px 0px 0px 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [before, loading, error, onLoad]);
  return (
    <li
      ref={ref}
      className="grid justify-items-center gap-2 py-2 text-center [overflow-anchor:none]"
      data-testid="earlier-runs"
    >
      <p className="text-xs text-ink-500">
        {formatCount(hiddenTurns, { one: "earlier message", other: "earlier messages" })} with their
        answers
      </p>
      <Button variant="outline" size="sm" onClick={onLoad} disabled={loading}>
        {loading ? "Loading earlier runs…" : "Load earlier runs"}
      </Button>
      {error !== null ? (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </li>
  );
}

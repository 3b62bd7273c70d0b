import { splitHighlights } from "@cohort/contracts";

/**
 * A search snippet with its matches marked. The server marks them with private-use
 * characters, never HTML; every part is rendered as text, so a document cannot inject markup.
 */
export function HighlightedSnippet({ snippet }: { snippet: string }) {
  return (
    <>
      {splitHighlights(snippet).map((part, index) =>
        part.highlighted ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never reorder
          <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-ink-950">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

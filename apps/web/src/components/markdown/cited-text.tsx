import { createContext, Fragment, type ReactNode, useContext } from "react";
import { Link } from "react-router";

/** Where a text's `[n]` citation leads (a path on this site) and what its tooltip names. */
export interface Citation {
  href: string;
  title: string;
}

/** A text's sources by citation number. */
export type Citations = ReadonlyMap<number, Citation>;

/** The sources of the Markdown being rendered; null where `[n]` is plain text (links too). */
export const CitationsContext = createContext<Citations | null>(null);

const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

function CitationLink({ n, citation }: { n: number; citation: Citation }) {
  return (
    <Link
      to={citation.href}
      title={citation.title}
      aria-label={`Source ${n}: ${citation.title}`}
      data-testid="citation"
      data-n={n}
      className="mx-0.5 inline-flex min-w-[1.6em] items-center justify-center rounded-md bg-brand-50 px-1.5 align-[0.1em] text-[0.8em] leading-[1.6] font-semibold text-brand-800 no-underline ring-1 ring-brand-200 ring-inset hover:bg-brand-100 hover:text-brand-950 focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {n}
    </Link>
  );
}

/**
 * Text with its `[n]` and `[n, m]` citations as links to their sources, shown as small
 * numbered chips: only numbers the sources know become links, the others stay as written
 * (`[7]`). A link's href comes from the caller's map, never from the text, so a model cannot
 * make one lead elsewhere.
 */
export function CitedText({ text }: { text: string }): ReactNode {
  const citations = useContext(CitationsContext);
  if (!citations || citations.size === 0 || !text.includes("[")) return text;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    const numbers = (match[1] as string).split(",").map((part) => Number(part.trim()));
    if (!numbers.some((n) => citations.has(n))) continue;
    parts.push(text.slice(last, match.index));
    parts.push(
      <Fragment key={match.index}>
        {numbers.map((n, index) => {
          const citation = citations.get(n);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: numbers may repeat inside one bracket
            <Fragment key={index}>
              {citation ? <CitationLink n={n} citation={citation} /> : `[${n}]`}
            </Fragment>
          );
        })}
      </Fragment>,
    );
    last = match.index + match[0].length;
  }
  if (last === 0) return text;
  parts.push(text.slice(last));
  return parts;
}

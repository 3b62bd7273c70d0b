import { HIGHLIGHT_END, HIGHLIGHT_START } from "@cohort/contracts";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HighlightedSnippet } from "./highlighted-snippet";

const html = (snippet: string) => renderToStaticMarkup(<HighlightedSnippet snippet={snippet} />);

describe("HighlightedSnippet", () => {
  it("marks the matches the server delimited", () => {
    expect(html(`the ${HIGHLIGHT_START}shipworms${HIGHLIGHT_END} near the pier`)).toBe(
      '<span>the </span><mark class="rounded-sm bg-amber-100 px-0.5 text-ink-950">shipworms</mark><span> near the pier</span>',
    );
  });

  it("renders markup inside a document as text, marked or not", () => {
    const out = html(`<img src=x onerror=alert(1)> ${HIGHLIGHT_START}<b>bold</b>${HIGHLIGHT_END}`);
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(out).toContain("&lt;b&gt;bold&lt;/b&gt;</mark>");
  });
});

import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Citations } from "./cited-text";
import { Markdown } from "./markdown";

const sources: Citations = new Map([
  [1, { href: "/documents?view=d1&passage=c1", title: "Handbook.pdf, page 3" }],
  [2, { href: "/documents?view=d2&passage=c2", title: "Notes.docx, Pricing" }],
]);

const html = (text: string, citations?: Citations) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown text={text} citations={citations} />
    </MemoryRouter>,
  );

describe("citations in Markdown", () => {
  it("links a known [n] to its source, with the source named in its tooltip", () => {
    const out = html("Refunds take 14 days [1].", sources);
    expect(out).toContain('href="/documents?view=d1&amp;passage=c1"');
    expect(out).toContain('title="Handbook.pdf, page 3"');
    expect(out).toContain('aria-label="Source 1: Handbook.pdf, page 3"');
    expect(out).toMatch(/days <a [^>]*>1<\/a>\./);
  });

  it("links each known number of [1, 2] and keeps unknown numbers as plain text", () => {
    const out = html("See [1, 2] and [7], [2, 9].", sources);
    expect(out.match(/data-testid="citation"/g)).toHaveLength(3);
    expect(out).toContain("and [7], ");
    expect(out).toMatch(/>2<\/a>\[9\]\.<\/p>/);
  });

  it("leaves [n] as text without sources, in code, and inside a link", () => {
    expect(html("Plain [1].")).not.toContain("<a");
    expect(html("Code `a[1]`", sources)).not.toContain('data-testid="citation"');
    const linked = html("[see [1]](https://example.test)", sources);
    expect(linked.match(/<a /g)).toHaveLength(1);
    expect(linked).not.toContain('data-testid="citation"');
  });

  it("never takes a link's address from the text", () => {
    const out = html("[1](javascript:alert(1)) and [2]", sources);
    expect(out).not.toContain("javascript:");
    expect(out).toContain('href="/documents?view=d2&amp;passage=c2"');
  });
});

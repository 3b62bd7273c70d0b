import { HIGHLIGHT_END, HIGHLIGHT_START, splitHighlights } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { CHUNK_MAX, CHUNK_MIN, chunkBlocks, cleanText, markdownBlocks } from "./chunk-text";
import { checkDocxZip } from "./docx-zip-guard";

describe("chunkBlocks", () => {
  it("keeps paragraphs whole and chunks within the bounds, never across blocks", () => {
    const paragraph = (n: number) => `${"word ".repeat(60).trim()} ${n}.`;
    const text = Array.from({ length: 30 }, (_, i) => paragraph(i)).join("\n\n");
    const chunks = chunkBlocks([
      { page: 1, section: null, text },
      { page: 2, section: null, text: "Short page." },
    ]);
    const first = chunks.filter((c) => c.page === 1);
    for (const chunk of first.slice(0, -1)) {
      expect(chunk.text.length).toBeGreaterThanOrEqual(CHUNK_MIN);
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX);
    }
    expect(first.map((c) => c.text).join("\n\n")).toBe(text);
    expect(chunks.at(-1)).toEqual({ page: 2, section: null, text: "Short page." });
  });

  it("cuts a paragraph with no breaks at sentence ends or spaces", () => {
    const chunks = chunkBlocks([{ page: null, section: null, text: "Abc def. ".repeat(600) }]);
    expect(chunks.every((c) => c.text.length <= CHUNK_MAX)).toBe(true);
    expect(chunks.every((c) => c.text.endsWith("."))).toBe(true);
  });
});

describe("cleanText", () => {
  it("removes highlight markers and NUL, so a document cannot forge a highlight", () => {
    expect(cleanText(`a${HIGHLIGHT_START}b${HIGHLIGHT_END}\u0000c\r\n\n\n\nd`)).toBe("abc\n\nd");
  });
});

describe("markdownBlocks", () => {
  it("starts a section at each heading, not at # lines inside code fences", () => {
    const blocks = markdownBlocks("intro\n# One\ntext\n```\n# not a heading\n```\n## Two\nmore");
    expect(blocks.map((b) => b.section)).toEqual([null, "One", "Two"]);
    expect(blocks[1]?.text).toContain("# not a heading");
  });
});

describe("splitHighlights", () => {
  it("cuts a snippet into plain and highlighted parts", () => {
    expect(splitHighlights(`a ${HIGHLIGHT_START}b${HIGHLIGHT_END} c`)).toEqual([
      { text: "a ", highlighted: false },
      { text: "b", highlighted: true },
      { text: " c", highlighted: false },
    ]);
  });
});

describe("checkDocxZip", () => {
  it("refuses what is not a zip", () => {
    expect(checkDocxZip(Buffer.from("not a zip at all"), 1024)).toMatch(/not a valid Word/);
  });
});

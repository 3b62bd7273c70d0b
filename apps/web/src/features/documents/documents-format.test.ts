import { describe, expect, it } from "vitest";
import { documentFacts, formatBytes, passageLocation, searchModeText } from "./documents-format";

describe("formatBytes", () => {
  it("counts in 1,024-based units, as the server's limits are set", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1023)).toBe("1,023 bytes");
    expect(formatBytes(1536)).toBe("1.5 kB");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MB");
    expect(formatBytes(2 * 1024 ** 3)).toBe("2 GB");
  });
});

describe("passageLocation", () => {
  it("names the page and section when the chunk has them", () => {
    expect(passageLocation({ page: 3, section: "Methods" })).toBe("Page 3 · Methods");
    expect(passageLocation({ page: 3, section: null })).toBe("Page 3");
    expect(passageLocation({ page: null, section: "Intro" })).toBe("Section Intro");
  });

  it("falls back to the chunk's place in reading order", () => {
    expect(passageLocation({ page: null, section: null, ordinal: 3 })).toBe("Part 4");
    expect(passageLocation({ page: null, section: null })).toBe("");
  });
});

describe("documentFacts", () => {
  it("names the kind and size, and the pages when the file has them", () => {
    expect(documentFacts({ kind: "pdf", size_bytes: 3_700, pages: 1 })).toEqual([
      "PDF",
      "3.6 kB",
      "1 page",
    ]);
    expect(documentFacts({ kind: "docx", size_bytes: 9_600, pages: null })).toEqual([
      "Word",
      "9.4 kB",
    ]);
  });
});

describe("searchModeText", () => {
  it("says keyword-only search plainly, and names the embedding model when there is one", () => {
    expect(searchModeText("keyword")).toBe("Keyword search");
    expect(searchModeText("hybrid", "openai:text-embedding-3-small")).toBe(
      "Hybrid search (keywords + embeddings: openai:text-embedding-3-small)",
    );
    expect(searchModeText("hybrid", null)).toBe("Hybrid search (keywords + embeddings)");
  });
});

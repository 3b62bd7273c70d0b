import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMarkdownReader, parseMarkdown } from "./markdown";

/** Pieces that make every kind of block and the places where one ends or goes on. */
const PIECES = [
  "\n",
  "\n\n",
  "\r\n",
  "\r",
  " ",
  "  ",
  "    ",
  "\t",
  "```",
  "```ts",
  "````",
  "~~~",
  "- ",
  "* ",
  "+ ",
  "1. ",
  "2) ",
  "> ",
  "# ",
  "### ",
  "---",
  "***",
  "| a | b |",
  "|---|:-:|",
  "|",
  "word",
  "plan the launch",
  "**",
  "_",
  "`",
  "~~",
  "\\",
  "[link](https://a.test/x)",
  "![img](https://a.test/i.png)",
  "https://b.test",
];

const markdownText = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 60 })
  .map((pieces) => pieces.join(""));

describe("parseMarkdown", () => {
  it("reads a list item whose marker a tab follows (it threw before)", () => {
    const item = (text: string) => [{ type: "paragraph", children: [{ type: "text", text }] }];
    expect(parseMarkdown("-\tone\n1.\ttwo")).toEqual([
      { type: "list", ordered: false, start: 1, tight: true, items: [item("one")] },
      { type: "list", ordered: true, start: 1, tight: true, items: [item("two")] },
    ]);
  });
});

describe("createMarkdownReader", () => {
  it("reads every prefix of a growing text as parseMarkdown reads it, whatever the cuts", () => {
    fc.assert(
      fc.property(markdownText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const read = createMarkdownReader();
        const prefixes = cuts
          .map((cut) => cut % (text.length + 1))
          .sort((a, b) => a - b)
          .map((cut) => text.slice(0, cut));
        for (const prefix of [...prefixes, text]) {
          expect(read(prefix)).toEqual(parseMarkdown(prefix));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("reads any text after any other as parseMarkdown does (a text that shrank or changed)", () => {
    fc.assert(
      fc.property(fc.array(markdownText, { minLength: 1, maxLength: 6 }), (texts) => {
        const read = createMarkdownReader();
        for (const text of texts) expect(read(text)).toEqual(parseMarkdown(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("reads text streamed a character at a time as parseMarkdown reads it", () => {
    const text =
      "## Plan\n\nFirst *line*\nsecond\n\n- one\n- two\n\n  still two\n\n```ts\nconst a = 1;\n\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\nThe end.";
    const read = createMarkdownReader();
    for (let n = 0; n <= text.length; n++) {
      expect(read(text.slice(0, n))).toEqual(parseMarkdown(text.slice(0, n)));
    }
  });

  it("keeps the blocks more text cannot change: the same objects, read once", () => {
    const read = createMarkdownReader();
    const [first] = read("First paragraph.\n\nSecond");
    const grown = read("First paragraph.\n\nSecond paragraph, longer.");
    expect(grown[0]).toBe(first);
    expect(grown).toEqual([
      { type: "paragraph", children: [{ type: "text", text: "First paragraph." }] },
      { type: "paragraph", children: [{ type: "text", text: "Second paragraph, longer." }] },
    ]);
    // The line that ended the first block changed: it is read again.
    expect(read("First paragraph.\nSecond")[0]).toEqual({
      type: "paragraph",
      children: [
        { type: "text", text: "First paragraph." },
        { type: "break" },
        { type: "text", text: "Second" },
      ],
    });
  });
});

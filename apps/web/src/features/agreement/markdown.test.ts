// @vitest-environment node
import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "./markdown";

describe("agreement markdown", () => {
  it("reads headings, paragraphs, lists and rules", () => {
    const blocks = parseMarkdown(
      [
        "# Cohort User Agreement",
        "",
        "**Version 1.0 — effective 1 January 2025**",
        "",
        "Please read this",
        "carefully.",
        "",
        "## 1. Lists",
        "- one",
        "- two",
        "  continued",
        "",
        "1. first",
        "2. second",
        "---",
      ].join("\n"),
    );
    expect(blocks.map((b) => b.type)).toEqual([
      "heading",
      "paragraph",
      "paragraph",
      "heading",
      "list",
      "list",
      "rule",
    ]);
    expect(blocks[0]).toEqual({
      type: "heading",
      level: 1,
      children: [{ type: "text", text: "Cohort User Agreement" }],
    });
    expect(blocks[2]).toEqual({
      type: "paragraph",
      children: [{ type: "text", text: "Please read this carefully." }],
    });
    expect(blocks[4]).toEqual({
      type: "list",
      ordered: false,
      items: [[{ type: "text", text: "one" }], [{ type: "text", text: "two continued" }]],
    });
    expect(blocks[5]).toMatchObject({ type: "list", ordered: true });
  });

  it("reads bold, italic, code and safe links inline", () => {
    expect(
      parseInline("select **I Agree** or *not* with `x` at [our site](https://cohort.chat)"),
    ).toEqual([
      { type: "text", text: "select " },
      { type: "strong", children: [{ type: "text", text: "I Agree" }] },
      { type: "text", text: " or " },
      { type: "em", children: [{ type: "text", text: "not" }] },
      { type: "text", text: " with " },
      { type: "code", text: "x" },
      { type: "text", text: " at " },
      { type: "link", href: "https://cohort.chat", children: [{ type: "text", text: "our site" }] },
    ]);
  });

  it("keeps HTML as text and drops unsafe link targets", () => {
    expect(parseInline("<script>alert(1)</script>")).toEqual([
      { type: "text", text: "<script>alert(1)</script>" },
    ]);
    expect(parseInline("[click](javascript:void)")).toEqual([{ type: "text", text: "click" }]);
    expect(safeHref("//evil.example")).toBeNull();
    expect(safeHref("/privacy")).toBe("/privacy");
    expect(safeHref("mailto:legal@cohort.chat")).toBe("mailto:legal@cohort.chat");
  });

  it("does not treat underscores inside words as emphasis", () => {
    expect(parseInline("snake_case_name")).toEqual([{ type: "text", text: "snake_case_name" }]);
  });
});

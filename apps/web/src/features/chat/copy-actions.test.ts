import { describe, expect, it } from "vitest";
import { plainTextOf } from "./copy-actions";

describe("plainTextOf", () => {
  it("drops the Markdown marks and keeps the words, list bullets and code", () => {
    const markdown = [
      "## Summary",
      "",
      "**Bold** and _soft_ with a [link](https://example.com) and `code`.",
      "",
      "- first",
      "- second",
      "",
      "1. one",
      "2. two",
      "",
      "```python",
      "print('hi')",
      "```",
      "",
      "> quoted",
    ].join("\n");
    expect(plainTextOf(markdown)).toBe(
      [
        "Summary",
        "Bold and soft with a link and code.",
        "• first\n• second",
        "1. one\n2. two",
        "print('hi')",
        "quoted",
      ].join("\n\n"),
    );
  });
});

import { describe, expect, it } from "vitest";
import { diffLines } from "./diff-lines";

describe("diffLines", () => {
  it("marks a changed line as removed then added, keeping the lines around it", () => {
    expect(
      diffLines("<h1>Hi</h1>\n<p>old</p>\n<footer/>", "<h1>Hi</h1>\n<p>new</p>\n<footer/>"),
    ).toEqual([
      { type: "same", text: "<h1>Hi</h1>" },
      { type: "removed", text: "<p>old</p>" },
      { type: "added", text: "<p>new</p>" },
      { type: "same", text: "<footer/>" },
    ]);
  });

  it("finds inserted and deleted lines in the middle", () => {
    expect(diffLines("a\nb\nc\nd", "a\nc\nx\nd")).toEqual([
      { type: "same", text: "a" },
      { type: "removed", text: "b" },
      { type: "same", text: "c" },
      { type: "added", text: "x" },
      { type: "same", text: "d" },
    ]);
  });

  it("gives up on texts too long to compare", () => {
    const long = (tag: string) => Array.from({ length: 2_500 }, (_, i) => `${tag}${i}`).join("\n");
    expect(diffLines(long("a"), long("b"))).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { breakLongRuns, MAX_UNBROKEN_RUN } from "./break-long-runs";

const runs = (text: string) => text.split("\n").map((line) => line.length);

describe("breakLongRuns", () => {
  it("leaves prose, short words and existing line breaks as they are", () => {
    const prose = Array.from({ length: 300 }, (_, i) => `word${i} and, more.`).join(" ");
    expect(breakLongRuns(prose)).toBe(prose);
    expect(breakLongRuns("short")).toBe("short");
    const lines = `${"a".repeat(MAX_UNBROKEN_RUN)}\n${"b".repeat(MAX_UNBROKEN_RUN)}`;
    expect(breakLongRuns(lines)).toBe(lines);
  });

  it("cuts a 20,000-character word into lines of the maximum, losing nothing", () => {
    const word = "x".repeat(20_000);
    const broken = breakLongRuns(word);
    expect(broken.replaceAll("\n", "")).toBe(word);
    expect(runs(broken)).toEqual(Array(50).fill(MAX_UNBROKEN_RUN));
  });

  it("counts spaces that may be glued (after an opening bracket) as part of the run", () => {
    const glued = "( a".repeat(1000);
    const broken = breakLongRuns(glued);
    expect(broken.replaceAll("\n", "")).toBe(glued);
    expect(Math.max(...runs(broken))).toBe(MAX_UNBROKEN_RUN);
  });

  it("cuts long runs of spaces, and never inside a surrogate pair", () => {
    expect(Math.max(...runs(breakLongRuns(`a${" ".repeat(5000)}b`)))).toBe(MAX_UNBROKEN_RUN);
    const emoji = "😀".repeat(1000);
    const broken = breakLongRuns(emoji);
    expect(broken.replaceAll("\n", "")).toBe(emoji);
    for (const line of broken.split("\n")) expect(line).toMatch(/^(😀)+$/u);
  });
});

import { describe, expect, it } from "vitest";
import { draftsToRevise, parseCriticVerdict } from "./parse-critic-verdict";

describe("parseCriticVerdict", () => {
  it("reads the closing score and per-draft scores of known steps", () => {
    const review = [
      "Draft s1: 8/10 — solid plan.",
      "Draft s2 (Coder): 5/10",
      "Draft zz: 1/10",
      "**Issues**: …",
      "Score: 6/10",
      "Verdict: revise",
    ].join("\n");
    expect(parseCriticVerdict(review, ["s1", "s2"])).toEqual({
      score: 6,
      draftScores: { s1: 8, s2: 5 },
    });
  });

  it("takes the last overall score, accepts markdown and decimals, and clamps", () => {
    expect(parseCriticVerdict("Score: 3/10 earlier\n**Score:** 7.5/10", []).score).toBe(7.5);
    expect(parseCriticVerdict("Score: 12/10", []).score).toBe(10);
  });

  it("gives null when there is no score", () => {
    expect(parseCriticVerdict("Looks fine to me.", ["s1"])).toEqual({
      score: null,
      draftScores: {},
    });
  });
});

describe("draftsToRevise", () => {
  it("revises nothing at or above the bar, or without a score", () => {
    expect(draftsToRevise({ score: 7, draftScores: {} }, ["a"], 7, 3)).toEqual([]);
    expect(draftsToRevise({ score: null, draftScores: {} }, ["a"], 7, 3)).toEqual([]);
  });

  it("picks the drafts below the bar, weakest first, at most max", () => {
    const verdict = { score: 5, draftScores: { a: 6, b: 9, c: 2, d: 4 } };
    expect(draftsToRevise(verdict, ["a", "b", "c", "d"], 7, 2)).toEqual(["c", "d"]);
  });

  it("revises every draft (up to max) when only the overall score is given", () => {
    expect(draftsToRevise({ score: 4, draftScores: {} }, ["a", "b", "c", "d"], 7, 3)).toEqual([
      "a",
      "b",
      "c",
    ]);
  });
});

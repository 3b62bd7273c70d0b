import { describe, expect, it } from "vitest";
import type { GatewayMessage } from "../models/gateway";
import { fitHistory, fitPassages, PASSAGE_CHARS_MAX, truncateMiddle } from "./fit-to-context";

const turn = (role: "user" | "assistant", chars: number, tag = ""): GatewayMessage => ({
  role,
  content: `${tag}${"x".repeat(Math.max(0, chars - tag.length))}`,
});

describe("fitHistory", () => {
  it("keeps everything that fits", () => {
    const history = [turn("user", 40), turn("assistant", 40)];
    expect(fitHistory(history, "request", { contextWindow: 10_000, maxOutputTokens: 100 })).toEqual(
      history,
    );
  });

  it("drops the oldest turns first when the window is small", () => {
    const history = [
      turn("user", 400, "u1"),
      turn("assistant", 400, "a1"),
      turn("user", 400, "u2"),
      turn("assistant", 400, "a2"),
    ];
    // 1000 × 0.95 − 600 − 25 = 325 tokens: two 104-token turns fit, not three.
    const kept = fitHistory(history, "y".repeat(100), {
      contextWindow: 1000,
      maxOutputTokens: 600,
    });
    expect(kept.map((m) => m.content.slice(0, 2))).toEqual(["u2", "a2"]);
  });

  it("starts with a user turn, ends with an assistant turn and merges repeated sides", () => {
    const history = [
      turn("assistant", 8, "a0"),
      turn("user", 8, "u1"),
      turn("user", 8, "u2"),
      turn("assistant", 8, "a2"),
      turn("user", 8, "u3"),
    ];
    const kept = fitHistory(history, "", { contextWindow: 100_000, maxOutputTokens: 10 });
    expect(kept.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(kept[0]?.content).toContain("u1");
    expect(kept[0]?.content).toContain("u2");
  });

  it("returns nothing when even the fixed parts fill the window", () => {
    expect(
      fitHistory([turn("user", 40), turn("assistant", 40)], "z".repeat(4000), {
        contextWindow: 1000,
        maxOutputTokens: 100,
      }),
    ).toEqual([]);
  });
});

describe("truncateMiddle", () => {
  it("leaves short text alone and cuts the middle of long text", () => {
    expect(truncateMiddle("short", 100)).toBe("short");
    const long = `START${"m".repeat(10_000)}END`;
    const cut = truncateMiddle(long, 100);
    expect(cut.startsWith("START")).toBe(true);
    expect(cut.endsWith("END")).toBe(true);
    expect(cut.length).toBeLessThan(500);
    expect(cut).toContain("characters left out");
  });
});

describe("fitPassages", () => {
  const passage = (id: string, chars: number) => ({
    chunk_id: id,
    text: "word ".repeat(chars / 5),
  });

  it("keeps passages best first within the budget, skipping one too big for a smaller one", () => {
    const kept = fitPassages(
      [passage("a", 400), passage("a", 400), passage("b", 1200), passage("c", 200)],
      250,
    );
    expect(kept.map((p) => p.chunk_id)).toEqual(["a", "c"]);
  });

  it("cuts a long passage at a word, and gives nothing when there is no room", () => {
    const [long] = fitPassages([passage("a", 8000)], 10_000);
    expect(long?.text.length).toBeLessThanOrEqual(PASSAGE_CHARS_MAX);
    expect(long?.text.endsWith("word…")).toBe(true);
    expect(fitPassages([passage("a", 400)], 50)).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeltaBatcher } from "./delta-batcher";

describe("createDeltaBatcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends a piece after a quiet spell in the same turn, with what else arrived in it", () => {
    const sent: string[] = [];
    const batcher = createDeltaBatcher((t) => sent.push(t), { intervalMs: 50 });
    batcher.push("Hel");
    batcher.push("lo");
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(["Hello"]);
    vi.advanceTimersByTime(60);
    batcher.push(" world");
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(["Hello", " world"]);
  });

  it("gathers pieces that follow closer than the interval into one event", () => {
    const sent: string[] = [];
    const batcher = createDeltaBatcher((t) => sent.push(t), { intervalMs: 50 });
    batcher.push("a");
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(["a"]);
    vi.advanceTimersByTime(10);
    batcher.push("b");
    vi.advanceTimersByTime(10);
    batcher.push("c");
    vi.advanceTimersByTime(29);
    expect(sent).toEqual(["a"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["a", "bc"]);
  });

  it("sends at once when the buffer is full, and the rest on close", () => {
    const sent: string[] = [];
    const batcher = createDeltaBatcher((t) => sent.push(t), { intervalMs: 50, maxChars: 5 });
    batcher.push("abc");
    batcher.push("defg");
    expect(sent).toEqual(["abcdefg"]);
    batcher.push("h");
    batcher.close();
    expect(sent).toEqual(["abcdefg", "h"]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual(["abcdefg", "h"]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeltaBatcher } from "./delta-batcher";

describe("createDeltaBatcher", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends what arrived within one interval as one piece", () => {
    const sent: string[] = [];
    const batcher = createDeltaBatcher((t) => sent.push(t), { intervalMs: 50 });
    batcher.push("Hel");
    batcher.push("lo");
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(["Hello"]);
    batcher.push(" world");
    vi.advanceTimersByTime(49);
    expect(sent).toEqual(["Hello"]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(["Hello", " world"]);
  });

  it("by default sends what arrived within one turn of the event loop as one piece", () => {
    const sent: string[] = [];
    const batcher = createDeltaBatcher((t) => sent.push(t));
    batcher.push("Hel");
    batcher.push("lo");
    expect(sent).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(sent).toEqual(["Hello"]);
    batcher.push(" world");
    batcher.close();
    expect(sent).toEqual(["Hello", " world"]);
    vi.runOnlyPendingTimers();
    expect(sent).toEqual(["Hello", " world"]);
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

import { describe, expect, it, vi } from "vitest";
import { singleFlight } from "./single-flight";

describe("singleFlight", () => {
  it("shares one call among callers that overlap it", async () => {
    let release = () => {};
    const fn = vi.fn(() => new Promise<number>((resolve) => (release = () => resolve(7))));
    const shared = singleFlight(fn);
    const calls = [shared(), shared(), shared()];
    release();
    expect(await Promise.all(calls)).toEqual([7, 7, 7]);
    expect(fn).toHaveBeenCalledTimes(1);
    const next = shared();
    release();
    await next;
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it("reuses a settled answer only within the reuse window", async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const shared = singleFlight(async () => ++n, 250);
      expect(await shared()).toBe(1);
      vi.advanceTimersByTime(100);
      expect(await shared()).toBe(1);
      vi.advanceTimersByTime(200);
      expect(await shared()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

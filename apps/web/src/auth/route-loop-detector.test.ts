// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  createRouteLoopDetector,
  INITIAL_ROUTE_LOOP_STATE,
  recordRouteVisit,
} from "./route-loop-detector";

/** A detector on a clock the test moves by hand. */
function detectorOnClock(start = 1_000_000) {
  let time = start;
  const c = {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
  return { c, detector: createRouteLoopDetector(c.now) };
}

/** Visits `path` `times` times at the same instant. */
function visitTimes(
  detector: ReturnType<typeof createRouteLoopDetector>,
  path: string,
  times: number,
): void {
  for (let i = 0; i < times; i++) detector.visit(path);
}

describe("route-loop detector", () => {
  it("flags a path visited more than 3 times within 5 s", () => {
    const { c, detector } = detectorOnClock();
    const seen: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      seen.push(detector.visit("/login"));
      c.advance(200);
      seen.push(detector.visit("/dashboard"));
      c.advance(200);
    }
    // The 4th visit of /login is the first flagged one; the flag then stays.
    expect(seen).toEqual([false, false, false, false, false, false, true, true]);
    expect(detector.looping).toBe(true);
  });

  it("does not flag 4 visits spread over more than 5 s", () => {
    const { c, detector } = detectorOnClock();
    for (let i = 0; i < 4; i++) {
      expect(detector.visit("/dashboard")).toBe(false);
      c.advance(1_700);
    }
  });

  it("keeps only the last 10 visits", () => {
    let state = INITIAL_ROUTE_LOOP_STATE;
    for (let i = 0; i < 14; i++) state = recordRouteVisit(state, `/page-${i}`, 1_000 + i).state;
    expect(state.visits).toHaveLength(10);
    expect(state.visits[0]?.path).toBe("/page-4");
  });

  it("forgets what it saw 10 s after it started recording", () => {
    const { c, detector } = detectorOnClock();
    detector.visit("/login");
    c.advance(3_000);
    visitTimes(detector, "/login", 2);
    c.advance(7_000);
    // 10 s since the first visit: the slate is wiped, so this is visit 1, not visit 4.
    expect(detector.visit("/login")).toBe(false);
    expect(detector.snapshot().visits).toEqual([{ path: "/login", time: c.now() }]);
  });

  it("counts only visits within the 5 s window even before a reset", () => {
    const { c, detector } = detectorOnClock();
    detector.visit("/a");
    c.advance(5_000);
    visitTimes(detector, "/a", 2);
    expect(detector.visit("/a")).toBe(false);
    expect(detector.visit("/a")).toBe(true);
  });

  it("can be reset", () => {
    const { detector } = detectorOnClock();
    visitTimes(detector, "/x", 4);
    expect(detector.looping).toBe(true);
    detector.reset();
    expect(detector.looping).toBe(false);
    expect(detector.snapshot().visits).toEqual([]);
  });
});

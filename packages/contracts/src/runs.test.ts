import { describe, expect, it } from "vitest";
import {
  ACTIVE_RUN_STATUSES,
  canAdvanceRun,
  citedNumbers,
  isRunActive,
  RUN_STATUS_TRANSITIONS,
  RUN_STATUSES,
} from "./runs";

describe("run status transitions", () => {
  it("moves forward through the phases, with review only between agents and synthesis", () => {
    expect(canAdvanceRun("queued", "planning")).toBe(true);
    expect(canAdvanceRun("planning", "running")).toBe(true);
    expect(canAdvanceRun("running", "reviewing")).toBe(true);
    expect(canAdvanceRun("running", "synthesizing")).toBe(true);
    expect(canAdvanceRun("reviewing", "synthesizing")).toBe(true);
    expect(canAdvanceRun("synthesizing", "completed")).toBe(true);
  });

  it("never skips planning or synthesis, goes back, or completes early", () => {
    expect(canAdvanceRun("queued", "running")).toBe(false);
    expect(canAdvanceRun("running", "planning")).toBe(false);
    expect(canAdvanceRun("reviewing", "running")).toBe(false);
    expect(canAdvanceRun("running", "completed")).toBe(false);
    expect(canAdvanceRun("planning", "planning")).toBe(false);
  });

  it("lets every active run fail or be cancelled, and keeps ended runs ended", () => {
    for (const status of ACTIVE_RUN_STATUSES) {
      expect(canAdvanceRun(status, "failed")).toBe(true);
      expect(canAdvanceRun(status, "cancelled")).toBe(true);
    }
    for (const status of RUN_STATUSES.filter((s) => !isRunActive(s))) {
      expect(RUN_STATUS_TRANSITIONS[status]).toEqual([]);
    }
  });
});

describe("citedNumbers", () => {
  it("reads [n] and [n, m] citations once each, in order, and nothing else", () => {
    expect(citedNumbers("As shown [2], and again [1, 2]; see [3,4] but not [x] or [0].")).toEqual([
      2, 1, 3, 4,
    ]);
    expect(citedNumbers("No citations here, only `arr[i]`.")).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { formatCredits, formatUsd } from "./plans";
import { SESSION_IDLE_AFTER_MS, sessionActivity, shownSessionStatus } from "./sessions";

describe("session activity (decision 032)", () => {
  const now = Date.parse("2026-11-23T12:00:00Z");
  const ago = (ms: number) => now - ms;

  it("is active while a run works, however long ago it started", () => {
    expect(
      sessionActivity(
        { running: true, lastRunEnded: null, lastActivityAt: ago(5 * 3_600_000) },
        now,
      ),
    ).toBe("active");
  });

  it("is completed once the last run completed, and stays so", () => {
    const facts = { running: false, lastRunEnded: "completed" as const };
    expect(sessionActivity({ ...facts, lastActivityAt: ago(1_000) }, now)).toBe("completed");
    expect(sessionActivity({ ...facts, lastActivityAt: ago(30 * 86_400_000) }, now)).toBe(
      "completed",
    );
  });

  it("turns idle after 30 minutes when the last run did not complete, or there was none", () => {
    for (const lastRunEnded of [null, "failed", "cancelled"] as const) {
      const at = (ms: number) =>
        sessionActivity({ running: false, lastRunEnded, lastActivityAt: ago(ms) }, now);
      expect(at(SESSION_IDLE_AFTER_MS - 1)).toBe("active");
      expect(at(SESSION_IDLE_AFTER_MS)).toBe("idle");
    }
  });

  it("shows the user's own status before the activity", () => {
    expect(shownSessionStatus({ status: "active", activity: "idle" })).toBe("idle");
    expect(shownSessionStatus({ status: "paused", activity: "completed" })).toBe("paused");
    expect(shownSessionStatus({ status: "archived", activity: "active" })).toBe("archived");
  });
});

describe("money on the public pages", () => {
  it("writes dollars and credits with grouping", () => {
    expect(formatUsd(1999.9)).toBe("$1,999.90");
    expect(formatUsd(9.99)).toBe("$9.99");
    expect(formatCredits(20000)).toBe("20,000");
    expect(formatCredits(2.5)).toBe("2.5");
  });
});

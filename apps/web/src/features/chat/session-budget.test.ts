// @vitest-environment node
import { SESSION_BUDGET_MAX } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { parseSessionBudget } from "./session-budget";

describe("parseSessionBudget", () => {
  it("reads an empty box as no cap and a number as credits to the hundredth", () => {
    expect(parseSessionBudget("  ")).toBeNull();
    expect(parseSessionBudget(" 12.345 ")).toBe(12.35);
    expect(parseSessionBudget(String(SESSION_BUDGET_MAX))).toBe(SESSION_BUDGET_MAX);
  });

  it("refuses zero, negatives, words and more than the maximum", () => {
    expect(parseSessionBudget("0")).toBe("invalid");
    expect(parseSessionBudget("0.004")).toBe("invalid");
    expect(parseSessionBudget("-5")).toBe("invalid");
    expect(parseSessionBudget("ten")).toBe("invalid");
    expect(parseSessionBudget(String(SESSION_BUDGET_MAX + 1))).toBe("invalid");
  });
});

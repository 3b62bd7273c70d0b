// @vitest-environment node
import { CREDITS_CRITICAL_THRESHOLD, CREDITS_LOW_THRESHOLD } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import {
  CREDIT_LEVEL_MESSAGES,
  creditLevel,
  formatCreditAmount,
  formatCreditCount,
  observeCredits,
  SHOWN_CREDIT_MESSAGES,
  shownCreditLevel,
} from "./credit-levels";

describe("creditLevel", () => {
  it("is normal above 20, low at 20 or fewer, critical at 5 or fewer (the UI states and the product limits)", () => {
    expect(CREDITS_LOW_THRESHOLD).toBe(20);
    expect(CREDITS_CRITICAL_THRESHOLD).toBe(5);
    expect(creditLevel(1000)).toBe("normal");
    expect(creditLevel(20.01)).toBe("normal");
    expect(creditLevel(20)).toBe("low");
    expect(creditLevel(5.01)).toBe("low");
    expect(creditLevel(5)).toBe("critical");
    expect(creditLevel(0)).toBe("critical");
  });

  it("has the spec's inline texts", () => {
    expect(CREDIT_LEVEL_MESSAGES).toEqual({
      normal: null,
      low: "Running low. Consider adding credits.",
      critical: "Critical! Add credits to continue.",
    });
  });
});

describe("shownCreditLevel", () => {
  it("asks an unverified account to verify instead of warning while welcome credits wait", () => {
    expect(shownCreditLevel(0, 50)).toBe("awaiting");
    expect(SHOWN_CREDIT_MESSAGES.awaiting).toBe("Verify your email to receive your free credits.");
    // Credits of its own above the low level: the ordinary level, nothing to warn about.
    expect(shownCreditLevel(30, 50)).toBe("normal");
    // No welcome credits to wait for (verified, or none on this server): the spec's levels.
    expect(shownCreditLevel(0, 0)).toBe("critical");
    expect(shownCreditLevel(12, 0)).toBe("low");
  });
});

describe("formatting", () => {
  it("keeps hundredths and drops floating-point noise", () => {
    expect(formatCreditAmount(1234)).toBe("1,234");
    expect(formatCreditAmount(0.1 + 0.2)).toBe("0.3");
    expect(formatCreditAmount(4.567)).toBe("4.57");
    expect(formatCreditCount(1)).toBe("1 credit");
    expect(formatCreditCount(0)).toBe("0 credits");
    expect(formatCreditCount(1.5)).toBe("1.5 credits");
  });
});

describe("observeCredits", () => {
  it("takes the first balance as the baseline: no announcement, no toast", () => {
    expect(observeCredits(null, 3)).toEqual({ level: "critical", announcement: null, toast: null });
    expect(observeCredits(null, 50)).toEqual({ level: "normal", announcement: null, toast: null });
  });

  it("announces a drop with the amount used and what remains", () => {
    expect(observeCredits(50, 47.5)).toEqual({
      level: "normal",
      announcement: "Used 2.5 credits. 47.5 credits remaining.",
      toast: null,
    });
    expect(observeCredits(22, 21).announcement).toBe("Used 1 credit. 21 credits remaining.");
  });

  it("says nothing when the balance grows or stays", () => {
    expect(observeCredits(3, 103)).toEqual({ level: "normal", announcement: null, toast: null });
    expect(observeCredits(15, 15)).toEqual({ level: "low", announcement: null, toast: null });
  });

  it("shows the low toast (4 s) on crossing to 20 or below", () => {
    expect(observeCredits(21, 20).toast).toEqual({
      title: "Low credits: 20 remaining",
      variant: "warning",
      durationMs: 4_000,
    });
  });

  it("shows the critical toast (error, 5 s) on crossing to 5 or below", () => {
    expect(observeCredits(12, 5).toast).toEqual({
      title: "Critical: Only 5 credits remaining!",
      variant: "error",
      durationMs: 5_000,
    });
  });

  it("shows only the critical toast when one drop crosses both thresholds", () => {
    expect(observeCredits(50, 2).toast?.title).toBe("Critical: Only 2 credits remaining!");
  });

  it("does not repeat a toast for further drops inside the same level", () => {
    expect(observeCredits(20, 12).toast).toBeNull();
    expect(observeCredits(12, 6).toast).toBeNull();
    expect(observeCredits(5, 1).toast).toBeNull();
    expect(observeCredits(1, 0).toast).toBeNull();
    // …but announces each of them.
    expect(observeCredits(5, 1).announcement).toBe("Used 4 credits. 1 credit remaining.");
  });

  it("warns again after the balance was topped up and falls once more", () => {
    const sequence = [50, 18, 100, 19, 3, 60, 4];
    const toasts: string[] = [];
    let previous: number | null = null;
    for (const next of sequence) {
      const change = observeCredits(previous, next);
      if (change.toast) toasts.push(change.toast.title);
      previous = next;
    }
    expect(toasts).toEqual([
      "Low credits: 18 remaining",
      "Low credits: 19 remaining",
      "Critical: Only 3 credits remaining!",
      "Critical: Only 4 credits remaining!",
    ]);
  });

  it("ignores sub-hundredth noise", () => {
    expect(observeCredits(21, 21 - 0.001)).toEqual({
      level: "normal",
      announcement: null,
      toast: null,
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  formatCompact,
  formatCount,
  formatCreditAmount,
  formatCreditDelta,
  formatCredits,
  formatInteger,
  formatMilliseconds,
  formatNumber,
  formatPercent,
  formatUsd,
  pluralize,
} from "./numbers";

describe("number formats", () => {
  it("writes dollars with grouping and cents", () => {
    expect(formatUsd(1999.9)).toBe("$1,999.90");
    expect(formatUsd(4.99)).toBe("$4.99");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(12345.678)).toBe("$12,345.68");
    expect(formatUsd(0.0012)).toBe("$0.0012");
    expect(formatUsd(0.005)).toBe("$0.01");
  });

  it("writes credits grouped, to the hundredth, with the noun agreeing", () => {
    expect(formatCredits(5000)).toBe("5,000 credits");
    expect(formatCredits(1)).toBe("1 credit");
    expect(formatCredits(1.004)).toBe("1 credit");
    expect(formatCredits(0.5)).toBe("0.5 credits");
    expect(formatCredits(0)).toBe("0 credits");
    expect(formatCredits(1234.567)).toBe("1,234.57 credits");
    expect(formatCreditAmount(20000)).toBe("20,000");
  });

  it("signs a change of the balance with a real minus sign", () => {
    expect(formatCreditDelta(100)).toBe("+100");
    expect(formatCreditDelta(-2.5)).toBe("\u22122.5");
    expect(formatCreditDelta(-1234.5)).toBe("\u22121,234.5");
    expect(formatCreditDelta(0)).toBe("0");
    expect(formatCreditDelta(-0.001)).toBe("0");
  });

  it("counts with the plural rules: 1 request, 2 requests", () => {
    expect(formatCount(1, "request")).toBe("1 request");
    expect(formatCount(2, "request")).toBe("2 requests");
    expect(formatCount(0, "request")).toBe("0 requests");
    expect(formatCount(12345, "call")).toBe("12,345 calls");
    expect(formatCount(1, { one: "entry", other: "entries" })).toBe("1 entry");
    expect(formatCount(3, { one: "entry", other: "entries" })).toBe("3 entries");
    expect(pluralize(1, "sign-in")).toBe("sign-in");
  });

  it("groups plain numbers and keeps big ones short when asked", () => {
    expect(formatNumber(1234567.891)).toBe("1,234,567.89");
    expect(formatNumber(2.5, 0)).toBe("3");
    expect(formatInteger(1999.4)).toBe("1,999");
    expect(formatCompact(950)).toBe("950");
    expect(formatCompact(12_345)).toBe("12.3K");
    expect(formatCompact(4_500_000)).toBe("4.5M");
    expect(formatPercent(0.256)).toBe("25.6%");
    expect(formatMilliseconds(850)).toBe("850 ms");
    expect(formatMilliseconds(1500)).toBe("1.5 s");
    expect(formatMilliseconds(42_000)).toBe("42 s");
  });
});

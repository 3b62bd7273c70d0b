import { describe, expect, it } from "vitest";
import {
  addHundredths,
  ceilToHundredths,
  creditsOf,
  formatHundredths,
  hundredths,
  hundredthsOf,
  leftOf,
  minHundredths,
  ZCreditAmount,
} from "./money";

describe("hundredths of a credit", () => {
  it("brands only safe integers", () => {
    expect(hundredths(125)).toBe(125);
    expect(() => hundredths(1.5)).toThrow(RangeError);
    expect(() => hundredths(Number.NaN)).toThrow(RangeError);
  });

  it("converts the wire's decimal credits both ways without float noise", () => {
    expect(hundredthsOf(0.29)).toBe(29);
    expect(hundredthsOf(4)).toBe(400);
    expect(hundredthsOf(1234.56)).toBe(123456);
    expect(creditsOf(hundredths(29))).toBe(0.29);
    expect(creditsOf(hundredthsOf(0.1 + 0.2))).toBe(0.3);
    expect(() => hundredthsOf(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("rounds prices up to the next whole hundredth, ignoring float noise", () => {
    expect(ceilToHundredths(0.001)).toBe(1);
    expect(ceilToHundredths(1.351)).toBe(136);
    expect(ceilToHundredths(0.1 + 0.2)).toBe(30);
    expect(ceilToHundredths(0)).toBe(0);
    expect(ceilToHundredths(-1)).toBe(0);
  });

  it("adds, subtracts down to zero and compares exactly", () => {
    const a = hundredths(10);
    const b = hundredths(20);
    expect(addHundredths(a, b, hundredths(0))).toBe(30);
    expect(leftOf(b, a)).toBe(10);
    expect(leftOf(a, b)).toBe(0);
    expect(minHundredths(a, b)).toBe(10);
  });

  it("formats amounts for messages", () => {
    expect(formatHundredths(hundredths(123450))).toBe("1,234.5");
    expect(formatHundredths(hundredths(400))).toBe("4");
    expect(formatHundredths(hundredths(7))).toBe("0.07");
  });

  it("accepts wire amounts with at most two decimals", () => {
    expect(ZCreditAmount.safeParse(12.34).success).toBe(true);
    expect(ZCreditAmount.safeParse(12.345).success).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { barPercent, niceCeiling } from "./chart-scale";

describe("chart scale", () => {
  it("rounds the top of the scale up to 1, 2, 2.5 or 5 × 10^k", () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(0.3)).toBe(0.5);
    expect(niceCeiling(1)).toBe(1);
    expect(niceCeiling(7)).toBe(10);
    expect(niceCeiling(18)).toBe(20);
    expect(niceCeiling(23)).toBe(25);
    expect(niceCeiling(130)).toBe(200);
    expect(niceCeiling(4200)).toBe(5000);
  });

  it("gives non-zero values at least a visible sliver", () => {
    expect(barPercent(0, 10)).toBe(0);
    expect(barPercent(5, 10)).toBe(50);
    expect(barPercent(0.001, 1000)).toBe(1.5);
    expect(barPercent(20, 10)).toBe(100);
  });
});

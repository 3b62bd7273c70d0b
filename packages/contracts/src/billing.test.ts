import { describe, expect, it } from "vitest";
import {
  CREDIT_PACKS,
  findCreditPack,
  findPlan,
  planPeriodCredits,
  planPriceCents,
  ZAdminCreditAdjustmentRequest,
  ZCreateCheckoutSessionRequest,
} from "./billing";
import { PLANS } from "./plans";

describe("plans and packs", () => {
  it("prices a year at ten months and grants twelve months of credits", () => {
    const pro = findPlan("pro");
    if (!pro) throw new Error("no pro plan");
    expect(planPriceCents(pro, "monthly")).toBe(1999);
    expect(planPriceCents(pro, "yearly")).toBe(19_990);
    expect(planPeriodCredits(pro, "monthly")).toBe(1000);
    expect(planPeriodCredits(pro, "yearly")).toBe(12_000);
    expect(PLANS.map((p) => p.monthlyCredits)).toEqual([200, 1000, 3000, 20_000]);
  });

  it("makes every pack dearer per credit than any plan", () => {
    const cheapestPlan = Math.min(...PLANS.map((p) => p.priceCentsMonthly / p.monthlyCredits));
    for (const pack of CREDIT_PACKS) {
      expect(pack.priceCents / pack.credits).toBeGreaterThan(cheapestPlan);
    }
    expect(findCreditPack("pack_100")).toMatchObject({ credits: 100, priceCents: 499 });
    expect(findCreditPack("pack_7")).toBeUndefined();
  });

  it("defaults the billing period to monthly and refuses the free tier", () => {
    expect(ZCreateCheckoutSessionRequest.parse({ tier: "pro" }).billingPeriod).toBe("monthly");
    expect(ZCreateCheckoutSessionRequest.safeParse({ tier: "free" }).success).toBe(false);
  });

  it("takes admin adjustments to the hundredth, never zero", () => {
    const parse = (delta: number) =>
      ZAdminCreditAdjustmentRequest.safeParse({ delta, reason: "x" }).success;
    expect(parse(12.34)).toBe(true);
    expect(parse(-0.01)).toBe(true);
    expect(parse(0.001)).toBe(false);
    expect(parse(0)).toBe(false);
  });
});

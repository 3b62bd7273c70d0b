// @vitest-environment node
import type { TSubscriptionInfo } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT_CONFIRMING_MESSAGE,
  checkoutOutcomeToast,
  formatCost,
  formatCreditDelta,
  formatTokens,
  ledgerReasonLabel,
} from "./billing-format";
import { type PlanContext, planAction, yearlySavingMonths } from "./plan-actions";
import { fallbackModelName } from "./use-model-names";

describe("billing formatting", () => {
  it("signs ledger deltas with a real minus and keeps hundredths", () => {
    expect(formatCreditDelta(100)).toBe("+100");
    expect(formatCreditDelta(-2.5)).toBe("\u22122.5");
    expect(formatCreditDelta(-0.1 - 0.2)).toBe("\u22120.3");
    expect(formatCreditDelta(1500)).toBe("+1,500");
    expect(formatCreditDelta(0)).toBe("0");
  });

  it("names ledger reasons for people, unknown ones readably", () => {
    expect(ledgerReasonLabel("credit_purchase")).toBe("Credit pack");
    expect(ledgerReasonLabel("subscription_grant")).toBe("Plan credits");
    expect(ledgerReasonLabel("some_new_reason")).toBe("some new reason");
  });

  it("shortens large token counts and keeps small costs visible", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_345)).toBe("12.3K");
    expect(formatTokens(2_500_000)).toBe("2.5M");
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(1234.5)).toBe("$1,234.50");
  });
});

describe("planAction", () => {
  const pro = { tier: "pro" as const, name: "Pro" };
  const starter = { tier: "starter" as const, name: "Starter" };
  const sub = (over: Partial<TSubscriptionInfo>): TSubscriptionInfo => ({
    tier: "pro",
    billing_period: "monthly",
    status: "active",
    current_period_end: null,
    cancel_at_period_end: false,
    ...over,
  });
  const dev = (
    currentTier: PlanContext["currentTier"],
    subscription: TSubscriptionInfo | null = null,
  ): PlanContext => ({ currentTier, subscription, payments: "dev" });

  it("offers every higher plan as an upgrade through checkout", () => {
    expect(planAction(pro, dev("free"), "monthly")).toEqual({
      kind: "checkout",
      label: "Upgrade to Pro",
      ariaLabel: "Upgrade to Pro, billed monthly",
    });
    expect(planAction(pro, dev("starter", sub({ tier: "starter" })), "yearly").label).toBe(
      "Upgrade to Pro",
    );
  });

  it("marks the current plan, and offers the other billing period of it", () => {
    expect(planAction(pro, dev("pro", sub({})), "monthly")).toEqual({
      kind: "current",
      label: "Current plan",
    });
    expect(planAction(pro, dev("pro", sub({})), "yearly").label).toBe("Switch to yearly billing");
    // A tier granted without a subscription (an administrator's grant) is simply current.
    expect(planAction(pro, dev("pro"), "yearly").kind).toBe("current");
  });

  it("offers lower plans as a switch", () => {
    expect(planAction(starter, dev("pro", sub({})), "monthly").label).toBe("Switch to Starter");
  });

  it("changes a live Stripe subscription in the portal, never with a second checkout", () => {
    const stripe: PlanContext = { currentTier: "pro", subscription: sub({}), payments: "stripe" };
    expect(planAction(starter, stripe, "monthly").kind).toBe("portal");
    expect(planAction(pro, stripe, "yearly").kind).toBe("portal");
    // Without a live subscription (never bought, or ended) Stripe sells through checkout.
    const ended = {
      ...stripe,
      currentTier: "free" as const,
      subscription: sub({ status: "canceled" }),
    };
    expect(planAction(pro, ended, "monthly").kind).toBe("checkout");
  });

  it("counts the months a yearly price saves", () => {
    expect(yearlySavingMonths({ price_monthly_usd: 19.99, price_yearly_usd: 199.9 })).toBe(2);
  });
});

describe("the checkout's return toast (decision 032)", () => {
  const pack = {
    id: "cs_1",
    kind: "credits" as const,
    status: "completed" as const,
    credits: 5000,
    tier: null,
    plan_name: null,
    billing_period: null,
    pack_name: "5,000 credits",
    amount_usd: 149.99,
  };
  const plan = {
    ...pack,
    kind: "subscription" as const,
    credits: 12000,
    tier: "pro" as const,
    plan_name: "Pro",
    billing_period: "yearly" as const,
    pack_name: null,
  };

  it("says what the payment added, from the server's record", () => {
    expect(checkoutOutcomeToast(pack)).toEqual({
      title: "Payment received: 5,000 credits added to your balance.",
      variant: "success",
    });
    expect(checkoutOutcomeToast({ ...pack, credits: 1 })?.title).toBe(
      "Payment received: 1 credit added to your balance.",
    );
    expect(checkoutOutcomeToast(plan)?.title).toBe(
      "Payment received: you are on the Pro plan, billed yearly, with 12,000 credits a year.",
    );
    expect(checkoutOutcomeToast({ ...plan, billing_period: "monthly", credits: 1000 })?.title).toBe(
      "Payment received: you are on the Pro plan, billed monthly, with 1,000 credits a month.",
    );
  });

  it("waits while the checkout is open and says so when the payment failed", () => {
    expect(checkoutOutcomeToast({ ...pack, status: "open" })).toBeNull();
    expect(checkoutOutcomeToast({ ...pack, status: "failed" })).toEqual({
      title: "The payment did not go through. You have not been charged.",
      variant: "error",
    });
    expect(CHECKOUT_CONFIRMING_MESSAGE).toContain("being confirmed");
  });
});

describe("model names when the catalogue has none", () => {
  it("reads like a name, not an id", () => {
    expect(fallbackModelName("claude-sonnet-4")).toBe("Claude sonnet 4");
    expect(fallbackModelName("local:llama3")).toBe("llama3 (local)");
  });
});

import { describe, expect, it } from "vitest";
import { estimateTokens, priceCall, worstCaseCredits, ZRunPlan } from "./models";

const model = { price: { input_per_1k: 0.3, output_per_1k: 1.5 } };

describe("pricing", () => {
  it("charges per 1,000 tokens, in hundredths of a credit, rounded up", () => {
    expect(priceCall(model, { inputTokens: 1000, outputTokens: 1000 })).toBe(180);
    expect(priceCall(model, { inputTokens: 2000, outputTokens: 500 })).toBe(135);
    expect(priceCall(model, { inputTokens: 1, outputTokens: 0 })).toBe(1);
    expect(priceCall(model, { inputTokens: 0, outputTokens: 0 })).toBe(0);
    // 0.1 + 0.2 style float noise must not add a hundredth.
    expect(
      priceCall(
        { price: { input_per_1k: 0.1, output_per_1k: 0.2 } },
        { inputTokens: 1000, outputTokens: 1000 },
      ),
    ).toBe(30);
    expect(
      priceCall(
        { price: { input_per_1k: 0, output_per_1k: 0 } },
        { inputTokens: 5000, outputTokens: 5000 },
      ),
    ).toBe(0);
  });

  it("reserves the worst case: the whole output budget", () => {
    expect(worstCaseCredits(model, 400, 4096)).toBe(
      priceCall(model, { inputTokens: 400, outputTokens: 4096 }),
    );
    expect(worstCaseCredits(model, 400, 4096)).toBeGreaterThanOrEqual(
      priceCall(model, { inputTokens: 400, outputTokens: 10 }),
    );
  });

  it("estimates about four characters per token", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });
});

describe("ZRunPlan", () => {
  const step = (id: string, dependsOn: string[] = []) => ({
    id,
    role: "coder",
    task: "t",
    dependsOn,
  });

  it("accepts steps that depend only on earlier steps", () => {
    expect(
      ZRunPlan.safeParse({ rationale: "r", steps: [step("a"), step("b", ["a"])] }).success,
    ).toBe(true);
  });

  it("rejects duplicate ids, forward or unknown dependencies, and empty plans", () => {
    expect(ZRunPlan.safeParse({ rationale: "r", steps: [step("a"), step("a")] }).success).toBe(
      false,
    );
    expect(
      ZRunPlan.safeParse({ rationale: "r", steps: [step("a", ["b"]), step("b")] }).success,
    ).toBe(false);
    expect(ZRunPlan.safeParse({ rationale: "r", steps: [step("a", ["a"])] }).success).toBe(false);
    expect(ZRunPlan.safeParse({ rationale: "r", steps: [] }).success).toBe(false);
    expect(
      ZRunPlan.safeParse({ rationale: "r", steps: [{ ...step("a"), role: "wizard" }] }).success,
    ).toBe(false);
  });
});

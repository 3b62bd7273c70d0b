import { describe, expect, it } from "vitest";
import { hideCosts, SHARE_MESSAGES, SHARE_TOKEN_PATTERN, sharePagePath } from "./shares";

describe("hideCosts", () => {
  it("nulls every cost field at any depth and keeps everything else", () => {
    const event = {
      type: "run.completed",
      seq: 7,
      total_credits: 1.25,
      input_tokens: 120,
      synthesis: { call_id: "c1", model: "coreason", credits: 0.5 },
      steps: [{ credits: 0.25, output: "draft", cited: [1, 2] }],
      message: { content: "The credits are fine." },
    };
    expect(hideCosts(event)).toEqual({
      type: "run.completed",
      seq: 7,
      total_credits: null,
      input_tokens: 120,
      synthesis: { call_id: "c1", model: "coreason", credits: null },
      steps: [{ credits: null, output: "draft", cited: [1, 2] }],
      message: { content: "The credits are fine." },
    });
    // The original is left as it was.
    expect(event.total_credits).toBe(1.25);
  });

  it("nulls the balance fields of a credits event too", () => {
    expect(
      hideCosts({ balance: 3, available: 2, run_credits: 1, session_spent_credits: 4 }),
    ).toEqual({ balance: null, available: null, run_credits: null, session_spent_credits: null });
  });

  it("replaces the text of errors that tell amounts of credits", () => {
    const run = {
      error: {
        code: "budget_exceeded",
        message: "This session has spent 1.20 of its 2.00 credit budget.",
      },
      steps: [{ error: { code: "provider_error", message: "The model did not answer." } }],
    };
    expect(hideCosts(run)).toEqual({
      error: { code: "budget_exceeded", message: SHARE_MESSAGES.costErrorHidden },
      steps: [{ error: { code: "provider_error", message: "The model did not answer." } }],
    });
  });
});

describe("share tokens", () => {
  it("accepts 43 base64url characters only", () => {
    expect(SHARE_TOKEN_PATTERN.test("a".repeat(43))).toBe(true);
    expect(SHARE_TOKEN_PATTERN.test("a".repeat(42))).toBe(false);
    expect(SHARE_TOKEN_PATTERN.test(`${"a".repeat(42)}=`)).toBe(false);
    expect(sharePagePath("abc")).toBe("/share/abc");
  });
});

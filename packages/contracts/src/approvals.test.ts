import { describe, expect, it } from "vitest";
import { APPROVAL_MESSAGES, approvalNeeded } from "./approvals";

describe("which tool calls need approval", () => {
  const base = { laneTainted: false, alwaysAllowed: false } as const;

  it("asks for write, external and costly calls by default, never for reads", () => {
    expect(approvalNeeded({ ...base, policy: "ask_risky", risk: "read" })).toBeNull();
    expect(approvalNeeded({ ...base, policy: "ask_risky", risk: "write" })).toBe("policy");
    expect(approvalNeeded({ ...base, policy: "ask_risky", risk: "external" })).toBe("policy");
    expect(approvalNeeded({ ...base, policy: "ask_risky", risk: "costly" })).toBe("policy");
  });

  it("asks for every call under ask_all and for none under never_ask", () => {
    expect(approvalNeeded({ ...base, policy: "ask_all", risk: "read" })).toBe("policy");
    expect(approvalNeeded({ ...base, policy: "never_ask", risk: "write" })).toBeNull();
    expect(approvalNeeded({ ...base, policy: "never_ask", risk: "costly" })).toBeNull();
  });

  it("an always-allowed tool is not asked about under the policy", () => {
    expect(
      approvalNeeded({ policy: "ask_all", risk: "write", laneTainted: false, alwaysAllowed: true }),
    ).toBeNull();
  });

  it("after untrusted output, write and external calls are asked about whatever else holds", () => {
    for (const policy of ["ask_all", "ask_risky", "never_ask"] as const) {
      for (const risk of ["write", "external"] as const) {
        expect(approvalNeeded({ policy, risk, laneTainted: true, alwaysAllowed: true })).toBe(
          "untrusted",
        );
      }
    }
    expect(
      approvalNeeded({
        policy: "never_ask",
        risk: "read",
        laneTainted: true,
        alwaysAllowed: false,
      }),
    ).toBeNull();
    expect(
      approvalNeeded({
        policy: "never_ask",
        risk: "costly",
        laneTainted: true,
        alwaysAllowed: false,
      }),
    ).toBeNull();
  });

  it("says how long an expired request waited", () => {
    expect(APPROVAL_MESSAGES.expiredNote(600)).toBe(
      "Nobody answered the approval request within 10 minutes: the call was denied and the tool was not called.",
    );
    expect(APPROVAL_MESSAGES.expiredNote(1)).toBe(
      "Nobody answered the approval request within 1 second: the call was denied and the tool was not called.",
    );
  });
});

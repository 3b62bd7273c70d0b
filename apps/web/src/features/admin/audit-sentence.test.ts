// @vitest-environment node
import { describe, expect, it } from "vitest";
import { auditSentence } from "./audit-sentence";

describe("auditSentence", () => {
  it.each([
    [
      "credits.adjust",
      { balance: 100 },
      { balance: 142.5, delta: 42.5 },
      "Added 42.5 credits: the balance went from 100 to 142.5 credits.",
    ],
    [
      "credits.adjust",
      { balance: 10 },
      { balance: 7.5, delta: -2.5 },
      "Deducted 2.5 credits: the balance went from 10 to 7.5 credits.",
    ],
    ["user.tier", { tier: "free" }, { tier: "pro" }, "Changed the tier from Free to Pro."],
    [
      "user.disable",
      { disabled_at: null },
      { disabled_at: "2026-12-06T10:00:00.000Z", revoked_sign_ins: 2 },
      "Disabled the account and ended 2 sign-ins.",
    ],
    ["user.enable", { disabled_at: "x" }, { disabled_at: null }, "Enabled the account again."],
    ["user.revoke_sign_ins", { active_sign_ins: 1 }, { active_sign_ins: 0 }, "Ended 1 sign-in."],
    [
      "account.deleted",
      { sessions: 3, documents: 1, workspaces_deleted: 0, credits_forfeited: 12.5 },
      null,
      "Deleted the account with 3 sessions and 1 document; 12.5 credits were forfeited.",
    ],
    [
      "user.email_verified",
      { email: "ada@example.test", verified: false },
      { email: "ada@example.test", verified: true },
      "Marked ada@example.test as verified.",
    ],
    [
      "user.password_reset_sent",
      null,
      { to: "ada@example.test" },
      "Sent a password reset link to ada@example.test.",
    ],
    [
      "model.override",
      { enabled: true, price: { input_per_1k: 0.1, output_per_1k: 0.4 } },
      { enabled: false, price: { input_per_1k: 0.1, output_per_1k: 0.4 } },
      "Turned the model off.",
    ],
    ["user.tier", "not an object", 42, "Changed the tier."],
  ] as const)("%s %j → %j", (action, before, after, expected) => {
    expect(auditSentence({ action, before, after })).toBe(expected);
  });
});

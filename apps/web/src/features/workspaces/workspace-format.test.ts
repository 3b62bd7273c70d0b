// @vitest-environment node
import type { TCreditsChanged, TWorkspaceCredits } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { parseCap } from "./member-usage";
import { capNote, teamOfCreditChange } from "./team-credits";
import { describeAction, describeDetails } from "./workspace-audit";

const change: TCreditsChanged = { balance: 5, available: 5, delta: -1, reason: "run" };
const USER = "00000000-0000-4000-8000-000000000001";
const TEAM = "00000000-0000-4000-8000-000000000002";

describe("workspace helpers", () => {
  it("routes a credits.changed to the team pool only when it names another workspace", () => {
    expect(teamOfCreditChange(change, USER)).toBeNull();
    expect(teamOfCreditChange({ ...change, workspace_id: USER }, USER)).toBeNull();
    expect(teamOfCreditChange({ ...change, workspace_id: TEAM }, USER)).toBe(TEAM);
  });

  it("says how much of a monthly cap is used, and nothing without a cap", () => {
    const credits: TWorkspaceCredits = {
      balance: 90,
      available: 80,
      my_monthly_cap: 50,
      my_spent_this_month: 12.5,
      my_held: 0,
    };
    expect(capNote(credits)).toBe("Your cap: 12.5 of 50 credits used this month.");
    expect(capNote({ ...credits, my_monthly_cap: null })).toBeNull();
  });

  it("reads a cap: empty is no cap, a negative or a word is refused", () => {
    expect(parseCap("")).toBeNull();
    expect(parseCap(" 25.456 ")).toBe(25.46);
    expect(parseCap("0")).toBe(0);
    expect(parseCap("-3")).toBe("invalid");
    expect(parseCap("lots")).toBe("invalid");
  });

  it("makes audit entries readable", () => {
    expect(describeAction("member.role_changed")).toBe("Member role changed");
    expect(describeDetails({ from: "viewer", to: "member" })).toBe("from: viewer · to: member");
    expect(describeDetails({})).toBe("");
  });
});

// @vitest-environment node
import type { TCreditsChanged, TWorkspaceCredits } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { parseCap } from "./member-usage";
import { capNote, teamOfCreditChange } from "./team-credits";
import { describeAction, describeEntry } from "./workspace-audit";

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

  it("makes audit entries read like sentences", () => {
    const alice = { actor_id: USER, actor_name: "Alice" };
    const names = (id: string) => (id === TEAM ? "Bob" : id);
    expect(
      describeEntry({
        ...alice,
        action: "credits.purchased",
        target: "",
        details: {
          credits: 500,
          package_id: "pack_500",
          checkout_id: "c0ffee00-0000-4000-8000-00000000_4f2a",
        },
      }),
    ).toBe("Alice added 500 credits to the pool (checkout ending 4F2A)");
    expect(
      describeEntry(
        { ...alice, action: "member.cap_changed", target: TEAM, details: { from: null, to: 10 } },
        names,
      ),
    ).toBe("Alice set Bob's monthly cap to 10 credits");
    expect(
      describeEntry(
        { ...alice, action: "member.cap_changed", target: TEAM, details: { from: 3, to: null } },
        names,
      ),
    ).toBe("Alice removed Bob's monthly cap");
    expect(
      describeEntry({
        ...alice,
        action: "mcp_server.added",
        target: TEAM,
        details: { name: "GitHub", url: "https://mcp.example.com/mcp", auth: "oauth" },
      }),
    ).toBe('Alice connected the MCP server "GitHub" (https://mcp.example.com/mcp)');
    expect(
      describeEntry({
        ...alice,
        action: "mcp_server.removed",
        target: TEAM,
        details: { name: "GitHub" },
      }),
    ).toBe('Alice removed the MCP server "GitHub"');
    expect(
      describeEntry(
        {
          ...alice,
          action: "member.role_changed",
          target: TEAM,
          details: { from: "viewer", to: "member" },
        },
        names,
      ),
    ).toBe("Alice changed Bob's role from viewer to member");
    expect(
      describeEntry({
        ...alice,
        action: "invitation.created",
        target: "max@example.test",
        details: { role: "admin", invitation_id: "x" },
      }),
    ).toBe("Alice invited max@example.test as an admin");
    expect(
      describeEntry({
        actor_id: null,
        actor_name: null,
        action: "pool.swept",
        target: "",
        details: {},
      }),
    ).toBe("Cohort: pool swept");
    expect(describeAction("member.role_changed")).toBe("Member role changed");
  });
});

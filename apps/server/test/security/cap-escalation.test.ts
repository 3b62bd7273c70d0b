import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { createTeam } from "../support/workspaces";

/**
 * Advisory class: privilege escalation through spending caps. A workspace admin could lift
 * their own monthly cap and set the owner's (decision 052, finding 10). Caps follow roles: admins
 * cap members and viewers; only owners cap admins and owners (decision 052).
 */

const REFUSED = {
  error: {
    code: "workspace_role_too_low",
    message: "Only owners can set the monthly caps of admins and owners.",
    details: { role: "admin", needs: "owner" },
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const capUrl = (teamId: string, userId: string) =>
  `/api/workspaces/${teamId}/members/${userId}/cap`;

async function capsOf(teamId: string) {
  const { rows } = await t.db.query<{ member_id: string; monthly_cap: string | null }>(
    "SELECT member_id, monthly_cap FROM credit_member_caps WHERE account_id = $1 ORDER BY member_id",
    [teamId],
  );
  return rows;
}

describe("caps of admins and owners", () => {
  it("an admin cannot set their own cap, another admin's or the owner's; the owner can", async () => {
    const owner = await signUp(t.app);
    const admin = await signUp(t.app);
    const otherAdmin = await signUp(t.app);
    const member = await signUp(t.app);
    const team = await createTeam(t.app, owner.user.id, [
      { userId: admin.user.id, role: "admin" },
      { userId: otherAdmin.user.id, role: "admin" },
      { userId: member.user.id, role: "member" },
    ]);
    // The owner caps the admin at 10 credits.
    const set = await owner.client.put(capUrl(team.id, admin.user.id), { monthly_cap_credits: 10 });
    expect(set.statusCode).toBe(200);
    const before = await capsOf(team.id);

    for (const target of [admin, otherAdmin, owner]) {
      for (const cap of [null, 1_000_000, 0]) {
        const response = await admin.client.put(capUrl(team.id, target.user.id), {
          monthly_cap_credits: cap,
        });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(REFUSED);
      }
    }
    expect(await capsOf(team.id)).toEqual(before);
    const { rows } = await t.db.query(
      "SELECT actor_id FROM workspace_audit_log WHERE workspace_id = $1 AND action = 'member.cap_changed'",
      [team.id],
    );
    expect(rows).toEqual([{ actor_id: owner.user.id }]);

    // An admin still caps members; the owner caps admins and owners.
    const memberCap = await admin.client.put(capUrl(team.id, member.user.id), {
      monthly_cap_credits: 5,
    });
    expect(memberCap.json()).toEqual({ user_id: member.user.id, monthly_cap_credits: 5 });
    const lifted = await owner.client.put(capUrl(team.id, admin.user.id), {
      monthly_cap_credits: null,
    });
    expect(lifted.json()).toEqual({ user_id: admin.user.id, monthly_cap_credits: null });
    const own = await owner.client.put(capUrl(team.id, owner.user.id), { monthly_cap_credits: 3 });
    expect(own.json()).toEqual({ user_id: owner.user.id, monthly_cap_credits: 3 });
  });
});

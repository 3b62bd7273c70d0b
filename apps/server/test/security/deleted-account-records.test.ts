import { ACCOUNT_DATA_ROUTES } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, TEST_PASSWORD } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { createSession, runToEnd } from "../support/runs";
import { setCredits } from "../support/runs-credits";
import { addTeamMember, createTeam } from "../support/workspaces";

/**
 * Advisory class: records a deleted account leaves wrong. A deleted admin's departure was not
 * in the team's audit log, their pool spend vanished from usage, and their email stayed in
 * audit entries (decision 052, finding 13). The team keeps "member left (account deleted)", the
 * spend under "Deleted member", and no trace of the address (decision 052).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0" });
});
afterAll(() => t.close());

describe("a team member deletes their account", () => {
  it("leaves an audit line, keeps their spend as Deleted member, and removes their email", async () => {
    const owner = await signUp(t.app, { verified: true });
    const leaver = await signUp(t.app, { firstName: "Dee", lastName: "Parted" });
    const team = await createTeam(t.app, owner.user.id);
    await setCredits(t.app, team.id, 500);
    // Invited by address (an audit line naming it), then an admin of the team.
    const invited = await owner.client.post(`/api/workspaces/${team.id}/invitations`, {
      email: leaver.email,
      role: "admin",
    });
    expect(invited.statusCode).toBe(201);
    await addTeamMember(t.app, team.id, { userId: leaver.user.id, role: "admin" });

    // The admin spends from the pool.
    const session = await createSession(leaver.client, { workspace_id: team.id });
    await runToEnd(leaver.client, session.id, "Plan a small library's fines");
    const usageUrl = `/api/workspaces/${team.id}/usage`;
    const before = (await owner.client.get(usageUrl)).json().members as {
      user_id: string;
      spent_credits: number;
      calls: number;
    }[];
    const spent = before.find((m) => m.user_id === leaver.user.id);
    expect(spent?.spent_credits).toBeGreaterThan(0);

    const deleted = await leaver.client.request("DELETE", ACCOUNT_DATA_ROUTES.account, {
      confirm: "DELETE",
      password: TEST_PASSWORD,
    });
    expect(deleted.statusCode).toBe(200);

    const after = (await owner.client.get(usageUrl)).json().members;
    expect(after).toContainEqual({
      user_id: leaver.user.id,
      email: "",
      display_name: "Deleted member",
      role: "member",
      spent_credits: spent?.spent_credits,
      held_credits: 0,
      monthly_cap_credits: null,
      calls: spent?.calls,
      departed: "deleted",
    });

    const audit = (await owner.client.get(`/api/workspaces/${team.id}/audit?limit=100`)).json()
      .entries as { action: string; target: string; details: unknown; actor_id: string | null }[];
    expect(audit[0]).toMatchObject({
      action: "member.left",
      actor_id: null,
      target: leaver.user.id,
      details: { role: "admin", account_deleted: true },
    });
    expect(JSON.stringify(audit)).not.toContain(leaver.email);
    expect(audit.find((e) => e.action === "invitation.created")?.target).toBe("Deleted member");
  });
});

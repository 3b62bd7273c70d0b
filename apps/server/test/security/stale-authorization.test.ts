import {
  SHARE_MESSAGES,
  type TSharedView,
  type TShareLink,
  type TWorkspaceShareLink,
} from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { type SignedUp, TEST_PASSWORD } from "../support/accounts";
import { listeningAppForBlock } from "../support/app";
import { createSession, sendMessage } from "../support/runs";
import { setCredits, signUpWithCredits } from "../support/runs-credits";
import { openShareStream } from "../support/share-stream";
import { createTeam } from "../support/workspaces";

/**
 * Advisory class: authorization that outlives its grant. A share link speaks for the member
 * who made it: it works only while they can still read the session (decision 051), checked
 * on every view and by every open stream; a deleted account's links are dead. The team's
 * owners and admins find and revoke every link of the workspace in one list.
 */

const t = listeningAppForBlock({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });

async function person(firstName: string): Promise<SignedUp> {
  const signed = await signUpWithCredits(t.app, 200, { firstName, lastName: "Test" });
  return signed;
}

/** A team of an owner, an admin, a member and a viewer, with a session the member made. */
async function team() {
  const [owner, admin, member, viewer] = await Promise.all(
    ["Olive", "Ada", "Mel", "Vic"].map((name) => person(name)),
  );
  const made = await createTeam(t.app, (owner as SignedUp).user.id, [
    { userId: (admin as SignedUp).user.id, role: "admin" },
    { userId: (member as SignedUp).user.id, role: "member" },
    { userId: (viewer as SignedUp).user.id, role: "viewer" },
  ]);
  // The team's pool pays for its runs.
  await setCredits(t.app, made.id, 200);
  const session = await createSession((member as SignedUp).client, {
    title: "Team roadmap",
    workspace_id: made.id,
  });
  return {
    owner: owner as SignedUp,
    admin: admin as SignedUp,
    member: member as SignedUp,
    viewer: viewer as SignedUp,
    teamId: made.id,
    sessionId: session.id,
  };
}

async function share(who: SignedUp, sessionId: string, body: Record<string, unknown> = {}) {
  const response = await who.client.post(`/api/sessions/${sessionId}/shares`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().share as TShareLink;
}

const viewStatus = async (token: string) => (await fetch(`${t.url}/api/share/${token}`)).status;

describe("a share link speaks for its creator", () => {
  it("stops working, stream included, once its creator is removed from the workspace", async () => {
    const t1 = await team();
    const link = await share(t1.member, t1.sessionId, { live: true });
    expect(await viewStatus(link.token)).toBe(200);
    const view = (await (await fetch(`${t.url}/api/share/${link.token}`)).json()) as TSharedView;
    const stream = await openShareStream(t.url, link.token, view.last_seq);
    await stream.readUntil((events) => events.some((e) => e.event === "open"));

    const removed = await t1.owner.client.delete(
      `/api/workspaces/${t1.teamId}/members/${t1.member.user.id}`,
    );
    expect(removed.statusCode).toBe(200);
    // The open stream ends, and a run started later is never shown.
    const last = await stream.readUntil(() => false);
    expect(stream.ended()).toBe(true);
    expect(last.at(-1)).toEqual({ event: "end", data: { reason: "gone" } });
    await sendMessage(t1.owner.client, t1.sessionId, "A plan made after the member left");

    const dead = await fetch(`${t.url}/api/share/${link.token}`);
    expect(dead.status).toBe(404);
    expect(((await dead.json()) as { error: { message: string } }).error.message).toBe(
      SHARE_MESSAGES.notFound,
    );
    expect((await fetch(`${t.url}/api/share/${link.token}/events`)).status).toBe(404);

    // The team's list says why it no longer opens.
    const listed = (await t1.owner.client.get(`/api/sessions/${t1.sessionId}/shares`)).json()
      .shares as TShareLink[];
    expect(listed.find((s) => s.id === link.id)?.status).toBe("creator_left");
  });

  it("dies with its creator's account", async () => {
    const t2 = await team();
    const link = await share(t2.member, t2.sessionId);
    expect(await viewStatus(link.token)).toBe(200);
    const deleted = await t2.member.client.request("DELETE", "/api/account", {
      confirm: "DELETE",
      password: TEST_PASSWORD,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await viewStatus(link.token)).toBe(404);
  });
});

describe("the workspace's links in one list", () => {
  it("shows owners and admins every link of the team, and lets them revoke any", async () => {
    const t3 = await team();
    const other = await createSession(t3.owner.client, {
      title: "Pricing",
      workspace_id: t3.teamId,
    });
    const memberLink = await share(t3.member, t3.sessionId, { live: true });
    const ownerLink = await share(t3.owner, other.id);
    // Another team's link is not in this list.
    const elsewhere = await team();
    await share(elsewhere.member, elsewhere.sessionId);

    for (const who of [t3.owner, t3.admin]) {
      const response = await who.client.get(`/api/workspaces/${t3.teamId}/shares`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      const shares = response.json().shares as TWorkspaceShareLink[];
      expect(shares.map((s) => [s.id, s.session_title, s.created_by, s.status])).toEqual([
        [ownerLink.id, "Pricing", "Olive Test", "active"],
        [memberLink.id, "Team roadmap", "Mel Test", "active"],
      ]);
    }
    // Members and viewers manage their own links session by session; outsiders learn nothing.
    for (const who of [t3.member, t3.viewer]) {
      const response = await who.client.get(`/api/workspaces/${t3.teamId}/shares`);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("workspace_role_too_low");
    }
    expect(
      (await elsewhere.owner.client.get(`/api/workspaces/${t3.teamId}/shares`)).statusCode,
    ).toBe(404);

    const revoked = await t3.admin.client.delete(`/api/shares/${memberLink.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(await viewStatus(memberLink.token)).toBe(404);
    const after = (await t3.owner.client.get(`/api/workspaces/${t3.teamId}/shares`)).json()
      .shares as TWorkspaceShareLink[];
    expect(after.find((s) => s.id === memberLink.id)?.status).toBe("revoked");
  });
});

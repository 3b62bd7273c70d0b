import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  SERVER_EVENTS,
  TEAM_WORKSPACES_PER_USER,
  type TRunEvent,
  type TWorkspace,
  type TWorkspaceChanged,
  type TWorkspaceRole,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOutbox } from "../src/platform/mail";
import { linkToken, type SignedUp, signUp, uniqueEmail, waitForMail } from "./support/accounts";
import { listenLocally, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { upload, waitProcessed } from "./support/documents";
import type { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { runToEnd } from "./support/runs";
import { setCredits } from "./support/runs-credits";
import { connected, joinSession, socketOpener } from "./support/sockets";
import { addTeamMember } from "./support/workspaces";

let t: TestApp;
let fake: FakeProviderServer;
let url: string;

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp());
  url = await listenLocally(t.app);
});
const opener = socketOpener(() => url);
afterAll(async () => {
  opener.closeAll();
  await t?.close();
});

const NOT_FOUND = { error: { code: "not_found", message: WORKSPACE_MESSAGES.notFound } };
const roleTooLow = (least: TWorkspaceRole) => ({
  error: {
    code: "workspace_role_too_low",
    message: WORKSPACE_MESSAGES.roleTooLow(least),
    details: expect.any(Object),
  },
});
const VIEWER_READ_ONLY = {
  error: {
    code: "workspace_role_too_low",
    message: WORKSPACE_MESSAGES.viewerReadOnly,
    details: { role: "viewer", needs: expect.any(String) },
  },
};
const ONLY_OWNERS = {
  error: {
    code: "workspace_role_too_low",
    message: WORKSPACE_MESSAGES.onlyOwnersManageAdmins,
    details: { role: "admin", needs: "owner" },
  },
};
const LAST_OWNER = { error: { code: "last_owner", message: WORKSPACE_MESSAGES.lastOwner } };

async function createTeamByHttp(client: TestClient, name = "Research team"): Promise<TWorkspace> {
  const response = await client.post("/api/workspaces", { name });
  expect(response.statusCode).toBe(201);
  return response.json().workspace as TWorkspace;
}

interface Crew {
  owner: SignedUp;
  admin: SignedUp;
  member: SignedUp;
  viewer: SignedUp;
  stranger: SignedUp;
  team: TWorkspace;
}

/** A team made over HTTP with one person per role (members added by SQL) and an outsider. */
async function crew(): Promise<Crew> {
  const [owner, admin, member, viewer, stranger] = await Promise.all([
    // Only a proven address sends invitations (decision 052).
    signUp(t.app, { firstName: "Olive", lastName: "Owner", verified: true }),
    signUp(t.app, { firstName: "Ada", lastName: "Admin", verified: true }),
    signUp(t.app, { firstName: "Mia", lastName: "Member" }),
    signUp(t.app, { firstName: "Vic", lastName: "Viewer" }),
    signUp(t.app, { firstName: "Sam", lastName: "Stranger" }),
  ]);
  const team = await createTeamByHttp(owner.client);
  await addTeamMember(t.app, team.id, { userId: admin.user.id, role: "admin" });
  await addTeamMember(t.app, team.id, { userId: member.user.id, role: "member" });
  await addTeamMember(t.app, team.id, { userId: viewer.user.id, role: "viewer" });
  return { owner, admin, member, viewer, stranger, team };
}

async function roleOf(workspaceId: string, userId: string): Promise<string | null> {
  const { rows } = await t.db.query<{ role: string }>(
    "SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2",
    [workspaceId, userId],
  );
  return rows[0]?.role ?? null;
}

async function auditActions(client: TestClient, workspaceId: string) {
  const response = await client.get(`/api/workspaces/${workspaceId}/audit?limit=100`);
  expect(response.statusCode).toBe(200);
  return (response.json().entries as { action: string; target: string; details: unknown }[]).map(
    ({ action, target, details }) => ({ action, target, details }),
  );
}

function inviteToken(text: string): string {
  const match = /https?:\/\/\S+\/dashboard\?invite=([\w-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no invitation link in: ${text}`);
  return match[1];
}

async function invite(client: TestClient, workspaceId: string, email: string, role = "member") {
  return client.post(`/api/workspaces/${workspaceId}/invitations`, { email, role });
}

/** Invites `email` and returns the token from the mail that arrives in the dev outbox. */
async function inviteByMail(
  client: TestClient,
  workspaceId: string,
  email: string,
  role = "member",
): Promise<string> {
  const before = new Set((await outboxTo(email)).map((m) => m.id));
  const response = await invite(client, workspaceId, email, role);
  expect(response.statusCode).toBe(201);
  // Sign-up's verification mail may land meanwhile: take the new invitation only.
  const mail = await waitForMail(
    t.app,
    email,
    (m) => !before.has(m.id) && m.subject === "You are invited to a team workspace on Cohort",
  );
  return inviteToken(mail.text);
}

async function outboxTo(email: string) {
  return (await listOutbox(t.app.db)).filter((m) => m.to === email);
}

describe("workspaces", () => {
  it("lists the personal workspace first, then teams by name; the creator owns a new team", async () => {
    const me = await signUp(t.app);
    const list = await me.client.get("/api/workspaces");
    expect(list.statusCode).toBe(200);
    expect(list.json().workspaces).toEqual([
      {
        id: me.user.id,
        kind: "personal",
        name: "Personal",
        role: "owner",
        member_count: 1,
        created_at: expect.any(String),
      },
    ]);
    const zeta = await createTeamByHttp(me.client, "  Zeta  ");
    expect(zeta).toMatchObject({ kind: "team", name: "Zeta", role: "owner", member_count: 1 });
    await createTeamByHttp(me.client, "alpha");
    const names = (await me.client.get("/api/workspaces"))
      .json()
      .workspaces.map((w: TWorkspace) => w.name);
    expect(names).toEqual(["Personal", "alpha", "Zeta"]);
    expect((await me.client.post("/api/workspaces", { name: "   " })).statusCode).toBe(400);
    expect(await auditActions(me.client, zeta.id)).toEqual([
      { action: "workspace.created", target: "", details: { name: "Zeta" } },
    ]);
  });

  it(`refuses a team beyond ${TEAM_WORKSPACES_PER_USER} owned ones with a clear 409`, async () => {
    const me = await signUp(t.app);
    for (let i = 0; i < TEAM_WORKSPACES_PER_USER; i += 1) {
      await createTeamByHttp(me.client, `Team ${i}`);
    }
    const refused = await me.client.post("/api/workspaces", { name: "One too many" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: {
        code: "workspace_limit_reached",
        message: WORKSPACE_MESSAGES.limitReached,
        details: { limit: TEAM_WORKSPACES_PER_USER },
      },
    });
  });

  it("reads for any member, renames for owners only, and deletes a team with everything in it", async () => {
    const { owner, admin, viewer, stranger, team } = await crew();
    const read = await viewer.client.get(`/api/workspaces/${team.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().workspace).toMatchObject({ id: team.id, role: "viewer", member_count: 4 });
    expect((await stranger.client.get(`/api/workspaces/${team.id}`)).json()).toEqual(NOT_FOUND);

    const renameBy = (c: TestClient, name: string) =>
      c.request("PATCH", `/api/workspaces/${team.id}`, { name });
    const byAdmin = await renameBy(admin.client, "Taken over");
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toEqual(roleTooLow("owner"));
    expect((await renameBy(viewer.client, "Mine")).json()).toEqual(VIEWER_READ_ONLY);
    const renamed = await renameBy(owner.client, "Platform team");
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().workspace.name).toBe("Platform team");

    const personal = await owner.client.request("DELETE", `/api/workspaces/${owner.user.id}`, {
      confirm_name: "Personal",
    });
    expect(personal.statusCode).toBe(400);
    expect(personal.json()).toEqual({
      error: { code: "personal_workspace", message: "Your personal workspace cannot be deleted." },
    });

    // A session, a document, a credit pool and a pending invitation in the team: all go with it.
    const session = await owner.client.post("/api/sessions", {
      title: "Team session",
      workspace_id: team.id,
    });
    expect(session.statusCode).toBe(201);
    const uploaded = await upload(owner.client, "notes.txt", "Team notes");
    expect(uploaded.statusCode).toBe(201);
    const documentId = uploaded.json().document.id as string;
    await waitProcessed(owner.client, documentId);
    await t.db.query("UPDATE documents SET workspace_id = $2 WHERE id = $1", [documentId, team.id]);
    const { rows: stored } = await t.db.query<{ storage_key: string }>(
      "SELECT storage_key FROM documents WHERE id = $1",
      [documentId],
    );
    const file = path.join(t.app.config.dataDir, "documents", stored[0]?.storage_key ?? "");
    expect(existsSync(file)).toBe(true);
    await setCredits(t.app, team.id, 50);
    await inviteByMail(owner.client, team.id, uniqueEmail("later"));

    const deleteBy = (c: TestClient, confirm_name: string) =>
      c.request("DELETE", `/api/workspaces/${team.id}`, { confirm_name });
    expect((await deleteBy(admin.client, "Platform team")).json()).toEqual(roleTooLow("owner"));
    const mismatch = await deleteBy(owner.client, "platform team");
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({
      error: { code: "confirmation_mismatch", message: WORKSPACE_MESSAGES.confirmMismatch },
    });
    const deleted = await deleteBy(owner.client, "Platform team");
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deleted: true });
    expect((await owner.client.get(`/api/workspaces/${team.id}`)).json()).toEqual(NOT_FOUND);
    expect(existsSync(file)).toBe(false);
    for (const table of ["sessions", "documents", "credit_accounts"]) {
      const column = table === "credit_accounts" ? "user_id" : "workspace_id";
      const { rows } = await t.db.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [team.id]);
      expect(rows).toEqual([]);
    }
    const { rows: invitations } = await t.db.query(
      "SELECT 1 FROM workspace_invitations WHERE workspace_id = $1",
      [team.id],
    );
    expect(invitations).toEqual([]);
  });

  it("answers 404 on every route to someone who is not a member of the workspace", async () => {
    const { owner, member, stranger, team } = await crew();
    const sent = await invite(owner.client, team.id, uniqueEmail("pending"));
    const invitationId = sent.json().invitation.id as string;
    const base = `/api/workspaces/${team.id}`;
    const calls: [string, string, unknown?][] = [
      ["GET", base],
      ["PATCH", base, { name: "Mine now" }],
      ["DELETE", base, { confirm_name: "Research team" }],
      ["GET", `${base}/members`],
      ["PATCH", `${base}/members/${member.user.id}`, { role: "viewer" }],
      ["DELETE", `${base}/members/${member.user.id}`],
      ["GET", `${base}/invitations`],
      ["POST", `${base}/invitations`, { email: uniqueEmail(), role: "member" }],
      ["DELETE", `${base}/invitations/${invitationId}`],
      ["GET", `${base}/audit`],
    ];
    for (const [method, path, body] of calls) {
      const response = await stranger.client.request(
        method as "GET",
        path,
        body ?? (method === "GET" ? undefined : {}),
      );
      expect({ method, path, status: response.statusCode, body: response.json() }).toEqual({
        method,
        path,
        status: 404,
        body: NOT_FOUND,
      });
    }
    // Nothing changed.
    expect(await roleOf(team.id, member.user.id)).toBe("member");
    expect((await owner.client.get(`${base}/invitations`)).json().invitations).toHaveLength(1);
  });
});

describe("members and roles", () => {
  it("lists members for every role, owners first", async () => {
    const { owner, admin, member, viewer, team } = await crew();
    const response = await viewer.client.get(`/api/workspaces/${team.id}/members`);
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .members.map((m: { user_id: string; role: string; display_name: string }) => [
          m.user_id,
          m.role,
          m.display_name,
        ]),
    ).toEqual([
      [owner.user.id, "owner", "Olive Owner"],
      [admin.user.id, "admin", "Ada Admin"],
      [member.user.id, "member", "Mia Member"],
      [viewer.user.id, "viewer", "Vic Viewer"],
    ]);
  });

  it("lets admins move members and viewers, owners everyone, and keeps the last owner", async () => {
    const { owner, admin, member, viewer, team } = await crew();
    const setRole = (c: TestClient, userId: string, role: TWorkspaceRole) =>
      c.request("PATCH", `/api/workspaces/${team.id}/members/${userId}`, { role });

    expect((await setRole(member.client, viewer.user.id, "member")).json()).toEqual(
      roleTooLow("admin"),
    );
    expect((await setRole(viewer.client, member.user.id, "viewer")).json()).toEqual(
      VIEWER_READ_ONLY,
    );
    const lowered = await setRole(admin.client, member.user.id, "viewer");
    expect(lowered.statusCode).toBe(200);
    expect(await roleOf(team.id, member.user.id)).toBe("viewer");
    expect((await setRole(admin.client, member.user.id, "admin")).json()).toEqual(ONLY_OWNERS);
    expect((await setRole(admin.client, viewer.user.id, "owner")).json()).toEqual(ONLY_OWNERS);
    expect((await setRole(admin.client, owner.user.id, "member")).json()).toEqual(ONLY_OWNERS);
    expect((await setRole(admin.client, admin.user.id, "member")).json()).toEqual(ONLY_OWNERS);
    const stranger = await signUp(t.app);
    const notMember = await setRole(owner.client, stranger.user.id, "viewer");
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().error.message).toBe(WORKSPACE_MESSAGES.memberNotFound);

    const lastOwner = await setRole(owner.client, owner.user.id, "admin");
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json()).toEqual(LAST_OWNER);
    expect((await setRole(owner.client, admin.user.id, "owner")).statusCode).toBe(200);
    // Two owners: either may now step down, and the other is then the last one.
    expect((await setRole(admin.client, owner.user.id, "member")).statusCode).toBe(200);
    expect((await setRole(admin.client, admin.user.id, "admin")).json()).toEqual(LAST_OWNER);

    const changes = (await auditActions(admin.client, team.id)).filter(
      (e) => e.action === "member.role_changed",
    );
    expect(changes).toEqual([
      {
        action: "member.role_changed",
        target: owner.user.id,
        details: { from: "owner", to: "member" },
      },
      {
        action: "member.role_changed",
        target: admin.user.id,
        details: { from: "admin", to: "owner" },
      },
      {
        action: "member.role_changed",
        target: member.user.id,
        details: { from: "member", to: "viewer" },
      },
    ]);
  });

  it("keeps an owner when two owners step down at the same moment", async () => {
    const { owner, admin, team } = await crew();
    await addTeamMember(t.app, team.id, { userId: admin.user.id, role: "owner" });
    const [a, b] = await Promise.all([
      owner.client.request("PATCH", `/api/workspaces/${team.id}/members/${owner.user.id}`, {
        role: "admin",
      }),
      admin.client.request("PATCH", `/api/workspaces/${team.id}/members/${admin.user.id}`, {
        role: "admin",
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const { rows } = await t.db.query(
      "SELECT user_id FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'",
      [team.id],
    );
    expect(rows).toHaveLength(1);
  });

  it("removes members (admins: members and viewers), lets anyone leave, but not the last owner", async () => {
    const { owner, admin, member, viewer, team } = await crew();
    const remove = (c: TestClient, userId: string) =>
      c.request("DELETE", `/api/workspaces/${team.id}/members/${userId}`);

    expect((await remove(member.client, viewer.user.id)).json()).toEqual(roleTooLow("admin"));
    expect((await remove(admin.client, owner.user.id)).json()).toEqual(ONLY_OWNERS);
    const removed = await remove(admin.client, member.user.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: true });
    expect(await roleOf(team.id, member.user.id)).toBeNull();
    expect((await member.client.get(`/api/workspaces/${team.id}`)).json()).toEqual(NOT_FOUND);

    expect((await remove(viewer.client, viewer.user.id)).statusCode).toBe(200);
    expect(await roleOf(team.id, viewer.user.id)).toBeNull();
    const lastOwner = await remove(owner.client, owner.user.id);
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json()).toEqual(LAST_OWNER);
    expect((await remove(owner.client, admin.user.id)).statusCode).toBe(200);

    expect(
      (await auditActions(owner.client, team.id)).filter((e) => e.action.startsWith("member.")),
    ).toEqual([
      { action: "member.removed", target: admin.user.id, details: { role: "admin" } },
      { action: "member.left", target: viewer.user.id, details: { role: "viewer" } },
      { action: "member.removed", target: member.user.id, details: { role: "member" } },
    ]);
  });

  it("keeps a personal workspace to its owner: no members, no invitations, no leaving", async () => {
    const me = await signUp(t.app);
    const other = await signUp(t.app);
    const base = `/api/workspaces/${me.user.id}`;
    const personal = {
      error: { code: "personal_workspace", message: WORKSPACE_MESSAGES.personalNoMembers },
    };
    expect((await invite(me.client, me.user.id, other.email)).json()).toEqual(personal);
    expect(
      (await me.client.request("PATCH", `${base}/members/${me.user.id}`, { role: "admin" })).json(),
    ).toEqual(personal);
    expect((await me.client.request("DELETE", `${base}/members/${me.user.id}`)).json()).toEqual({
      error: { code: "personal_workspace", message: WORKSPACE_MESSAGES.personalNotLeavable },
    });
    expect((await me.client.get(`${base}/members`)).json().members).toHaveLength(1);
  });
});

describe("invitations", () => {
  it("invites by mail; the invited account accepts once; the audit log records each step", async () => {
    const { owner, admin, member, viewer, team } = await crew();
    const invitee = await signUp(t.app, { firstName: "Ivy", lastName: "Invitee" });

    expect((await invite(viewer.client, team.id, invitee.email)).json()).toEqual(VIEWER_READ_ONLY);
    expect((await invite(member.client, team.id, invitee.email)).json()).toEqual(
      roleTooLow("admin"),
    );
    expect((await invite(admin.client, team.id, invitee.email, "admin")).json()).toEqual(
      ONLY_OWNERS,
    );
    expect((await invite(admin.client, team.id, invitee.email, "owner")).statusCode).toBe(400);
    const existing = await invite(admin.client, team.id, member.email.toUpperCase());
    expect(existing.statusCode).toBe(409);
    expect(existing.json()).toEqual({
      error: { code: "already_member", message: WORKSPACE_MESSAGES.alreadyMember(member.email) },
    });

    const first = await inviteByMail(admin.client, team.id, invitee.email);
    const token = await inviteByMail(admin.client, team.id, invitee.email, "viewer");
    const mail = await waitForMail(t.app, invitee.email, (m) => m.subject.includes("invited"));
    expect(mail.subject).toBe("You are invited to a team workspace on Cohort");
    expect(mail.text).toContain(
      `"Ada Admin" (${admin.email}) invited you to join the team workspace "Research team" on Cohort`,
    );
    expect(mail.text).toContain("expires in 7 days");

    const pending = await admin.client.get(`/api/workspaces/${team.id}/invitations`);
    expect(pending.json().invitations).toEqual([
      {
        id: expect.any(String),
        email: invitee.email,
        role: "viewer",
        invited_by: "Ada Admin",
        expires_at: expect.any(String),
        created_at: expect.any(String),
      },
    ]);
    const expiresIn = Date.parse(pending.json().invitations[0].expires_at) - Date.now();
    expect(Math.round(expiresIn / 86_400_000)).toBe(7);
    expect((await member.client.get(`/api/workspaces/${team.id}/invitations`)).statusCode).toBe(
      403,
    );

    // The replaced link is dead; the new one previews for whoever holds it.
    expect((await invitee.client.get(`/api/invitations/${first}`)).statusCode).toBe(404);
    const preview = await owner.client.get(`/api/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      workspace_name: "Research team",
      role: "viewer",
      invited_by: "Ada Admin",
      email: invitee.email,
      expires_at: pending.json().invitations[0].expires_at,
    });

    const wrong = await owner.client.post(`/api/invitations/${token}/accept`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({
      error: {
        code: "invitation_wrong_account",
        message: `This invitation is for ${invitee.email}. Sign in with that address to accept it.`,
      },
    });
    // Signed out, the link shows who invited which address to which workspace, only that.
    const signedOut = await t.app.inject({
      method: "GET",
      url: `/api/invitations/${token}/public`,
    });
    expect(signedOut.statusCode).toBe(200);
    expect(signedOut.json()).toEqual({
      workspace_name: "Research team",
      invited_by: "Ada Admin",
      email: invitee.email,
    });
    const unknown = await t.app.inject({ method: "GET", url: "/api/invitations/nope/public" });
    expect(unknown.statusCode).toBe(404);
    // An unconfirmed address cannot accept; once confirmed, it can.
    const unverified = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toEqual({
      error: {
        code: "invitation_unverified",
        message: `Confirm ${invitee.email} first: open the link in the email we sent you, then accept the invitation.`,
      },
    });
    const confirm = linkToken(
      await waitForMail(t.app, invitee.email, (m) => /confirm/i.test(m.subject)),
      "/verify-email",
    );
    expect(
      (await invitee.client.post("/api/user-auth/verify-email", { token: confirm })).statusCode,
    ).toBe(200);
    const accepted = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().workspace).toMatchObject({ id: team.id, role: "viewer" });
    expect(await roleOf(team.id, invitee.user.id)).toBe("viewer");

    const again = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: { code: "invitation_used", message: WORKSPACE_MESSAGES.invitationUsed },
    });
    expect((await invitee.client.get(`/api/invitations/${token}`)).statusCode).toBe(409);
    expect((await admin.client.get(`/api/workspaces/${team.id}/invitations`)).json()).toEqual({
      invitations: [],
    });

    const trail = (await auditActions(owner.client, team.id)).filter(
      (e) => e.action.startsWith("invitation.") || e.action === "member.joined",
    );
    expect(trail.map((e) => [e.action, e.target])).toEqual([
      ["member.joined", invitee.user.id],
      ["invitation.accepted", invitee.email],
      ["invitation.created", invitee.email],
      ["invitation.created", invitee.email],
    ]);
  });

  it("refuses an expired link with 410 and a withdrawn or unknown one with 404", async () => {
    const { owner, admin, team } = await crew();
    const invitee = await signUp(t.app, { verified: true });
    const token = await inviteByMail(owner.client, team.id, invitee.email);
    await t.db.query(
      "UPDATE workspace_invitations SET expires_at = now() - interval '1 minute' WHERE workspace_id = $1",
      [team.id],
    );
    const expired = await invitee.client.post(`/api/invitations/${token}/accept`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({
      error: { code: "invitation_expired", message: WORKSPACE_MESSAGES.invitationExpired },
    });
    expect((await invitee.client.get(`/api/invitations/${token}`)).statusCode).toBe(410);
    expect(await roleOf(team.id, invitee.user.id)).toBeNull();

    const fresh = await inviteByMail(owner.client, team.id, invitee.email);
    const [pending] = (await admin.client.get(`/api/workspaces/${team.id}/invitations`)).json()
      .invitations as { id: string }[];
    const revoke = () =>
      admin.client.request("DELETE", `/api/workspaces/${team.id}/invitations/${pending?.id}`);
    expect((await revoke()).json()).toEqual({ revoked: true });
    expect((await revoke()).statusCode).toBe(404);
    const withdrawn = await invitee.client.post(`/api/invitations/${fresh}/accept`);
    expect(withdrawn.statusCode).toBe(404);
    expect(withdrawn.json()).toEqual({
      error: { code: "not_found", message: WORKSPACE_MESSAGES.invitationNotFound },
    });
    expect((await invitee.client.get("/api/invitations/nothing-like-a-token")).statusCode).toBe(
      404,
    );
    expect(
      (await auditActions(owner.client, team.id)).find((e) => e.action === "invitation.revoked"),
    ).toEqual({
      action: "invitation.revoked",
      target: invitee.email,
      details: { role: "member", invitation_id: pending?.id },
    });
  });

  it("lets one of two parallel accepts of a link win; the other hears it was used", async () => {
    const { owner, team } = await crew();
    const invitee = await signUp(t.app, { verified: true });
    const token = await inviteByMail(owner.client, team.id, invitee.email);
    const statuses = (
      await Promise.all(
        Array.from({ length: 4 }, () => invitee.client.post(`/api/invitations/${token}/accept`)),
      )
    )
      .map((response) => response.statusCode)
      .sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    const joined = (await auditActions(owner.client, team.id)).filter(
      (e) => e.action === "member.joined",
    );
    expect(joined).toHaveLength(1);
  });

  it("pages the audit log newest first for admins only", async () => {
    const { owner, admin, member, team } = await crew();
    for (let i = 0; i < 3; i += 1) await invite(owner.client, team.id, uniqueEmail(`page${i}`));
    expect((await member.client.get(`/api/workspaces/${team.id}/audit`)).json()).toEqual(
      roleTooLow("admin"),
    );
    const first = (await admin.client.get(`/api/workspaces/${team.id}/audit?limit=2`)).json();
    expect(first.has_more).toBe(true);
    expect(first.entries.map((e: { action: string }) => e.action)).toEqual([
      "invitation.created",
      "invitation.created",
    ]);
    expect(first.entries[0].actor_name).toBe("Olive Owner");
    const last = first.entries[1].id as number;
    const second = (
      await admin.client.get(`/api/workspaces/${team.id}/audit?limit=2&before=${last}`)
    ).json();
    expect(second.entries.map((e: { action: string }) => e.action)).toEqual([
      "invitation.created",
      "workspace.created",
    ]);
    expect(second.has_more).toBe(false);
    expect(second.entries[0].id).toBeLessThan(last);
  });
});

describe("open sockets", () => {
  const ONE_CODER = {
    rationale: "One coder step.",
    steps: [{ id: "s1", role: "coder", task: "Write it", dependsOn: [] }],
  };

  async function until(check: () => boolean, what: string) {
    const deadline = Date.now() + 20_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  }

  it("tells a member of a lowered role, and drops a removed member's socket from the team's rooms", async () => {
    const owner = await signUp(t.app, { verified: true });
    const member = await signUp(t.app, { verified: true });
    const team = await createTeamByHttp(owner.client);
    await setCredits(t.app, team.id, 200);
    const token = await inviteByMail(owner.client, team.id, member.email);
    expect((await member.client.post(`/api/invitations/${token}/accept`)).statusCode).toBe(200);
    const created = await owner.client.post("/api/sessions", {
      title: "Team session",
      workspace_id: team.id,
    });
    expect(created.statusCode).toBe(201);
    const sessionId = created.json().session.id as string;
    // The member's own personal session stays watched after the removal.
    const mine = await member.client.post("/api/sessions", { title: "Mine" });
    const mineId = mine.json().session.id as string;

    const ownerSocket = opener.open({ token: owner.token });
    const memberSocket = opener.open({ token: member.token });
    await Promise.all([connected(ownerSocket), connected(memberSocket)]);
    expect((await joinSession(ownerSocket, sessionId)).ok).toBe(true);
    expect((await joinSession(memberSocket, sessionId)).ok).toBe(true);
    expect((await joinSession(memberSocket, mineId)).ok).toBe(true);
    const changes: TWorkspaceChanged[] = [];
    memberSocket.on(SERVER_EVENTS.workspaceChanged, (event: TWorkspaceChanged) =>
      changes.push(event),
    );
    const ownerEvents: TRunEvent[] = [];
    const memberEvents: TRunEvent[] = [];
    ownerSocket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => ownerEvents.push(event));
    memberSocket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => memberEvents.push(event));

    const lowered = await owner.client.request(
      "PATCH",
      `/api/workspaces/${team.id}/members/${member.user.id}`,
      { role: "viewer" },
    );
    expect(lowered.statusCode).toBe(200);
    await until(() => changes.length === 1, "workspace.changed after lowering");
    expect(changes[0]).toEqual({ workspace_id: team.id, role: "viewer" });

    const removed = await owner.client.request(
      "DELETE",
      `/api/workspaces/${team.id}/members/${member.user.id}`,
    );
    expect(removed.statusCode).toBe(200);
    await until(() => changes.length === 2, "workspace.changed after removal");
    expect(changes[1]).toEqual({ workspace_id: team.id, role: null });
    const [server] = await t.app.realtime.io.in(`user:${member.user.id}`).fetchSockets();
    const rooms = [...(server?.rooms ?? [])];
    expect(rooms).not.toContain(`chat:${sessionId}`);
    expect(rooms).toContain(`chat:${mineId}`);
    expect(rooms.some((room) => room.startsWith(`workspace:${team.id}:`))).toBe(false);
    expect(await joinSession(memberSocket, sessionId)).toEqual({ ok: false, error: "not_found" });

    fake.next({ json: ONE_CODER });
    const { events: stored } = await runToEnd(owner.client, sessionId, "Hello team");
    await until(() => ownerEvents.length === stored.length, "the owner's live events");
    expect(ownerEvents).toEqual(stored);
    expect(memberEvents).toEqual([]);
  });
});

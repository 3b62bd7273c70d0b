import type { TAdminWorkspacesResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, linkToken, logIn, signUp, waitForMail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { setCredits } from "./support/runs-credits";
import { createTeam } from "./support/workspaces";

/**
 * Account support from the admin area (decision 056): verification and reset emails, marking
 * an address verified, deleting an account as its holder would, and team workspaces with
 * their members, pool, caps and spend. Every action leaves an audit entry.
 */
const ADMIN_EMAIL = "support-admin@cohort.example";
const ADMIN_PASSWORD = "an admin passphrase for support";

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL, ADMIN_PASSWORD, SIGNUP_CREDITS: "50" });
  admin = await adminClient(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(() => t?.close());

async function auditFor(targetId: string) {
  const response = await admin.get(`/api/admin/audit?targetId=${targetId}`);
  return response.json().entries as {
    action: string;
    admin_email: string;
    before: unknown;
    after: unknown;
    reason: string | null;
  }[];
}

describe("email support", () => {
  it("sends a new verification link that works, and says so", async () => {
    const { user, client, email } = await signUp(t.app);
    const sent = await admin.post(`/api/admin/users/${user.id}/verification-email`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      success: true,
      message: `A new verification link was sent to ${email}.`,
    });
    const mail = await waitForMail(t.app, email, (m) => m.subject.includes("Confirm"));
    const token = linkToken(mail, "/verify-email");
    expect((await client.post("/api/user-auth/verify-email", { token })).statusCode).toBe(200);
    expect((await client.get("/api/users/profile")).json().user.emailVerified).toBe(true);

    const again = await admin.post(`/api/admin/users/${user.id}/verification-email`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("This email address is already verified.");
    expect((await auditFor(user.id)).map((e) => [e.action, e.admin_email, e.after])).toEqual([
      ["user.verification_sent", ADMIN_EMAIL, { to: email }],
    ]);
  });

  it("marks an address verified with a reason, which brings the welcome credits", async () => {
    const { user, client, email } = await signUp(t.app);
    expect((await client.get("/api/users/profile")).json().user).toMatchObject({
      emailVerified: false,
      credits_remaining: 0,
    });
    const noReason = await admin.post(`/api/admin/users/${user.id}/verify-email`, { reason: "" });
    expect(noReason.statusCode).toBe(400);
    const marked = await admin.post(`/api/admin/users/${user.id}/verify-email`, {
      reason: "Confirmed by phone",
    });
    expect(marked.statusCode).toBe(200);
    expect(marked.json().message).toBe(`${email} is now verified.`);
    expect((await client.get("/api/users/profile")).json().user).toMatchObject({
      emailVerified: true,
      credits_remaining: 50,
    });
    expect((await auditFor(user.id))[0]).toMatchObject({
      action: "user.email_verified",
      reason: "Confirmed by phone",
      before: { email, verified: false },
      after: { email, verified: true },
    });
  });

  it("sends a password reset link with which the user sets a new password", async () => {
    const { user, email } = await signUp(t.app);
    const sent = await admin.post(`/api/admin/users/${user.id}/password-reset`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toBe(`A password reset link was sent to ${email}.`);
    const mail = await waitForMail(t.app, email, (m) => m.subject.includes("Reset"));
    const token = linkToken(mail, "/reset-password");
    const reset = await admin.post("/api/user-auth/reset-password", {
      token,
      password: "a brand new passphrase 42",
    });
    expect(reset.statusCode).toBe(200);
    expect((await logIn(t.app, email, "a brand new passphrase 42")).response.statusCode).toBe(200);
    expect((await auditFor(user.id))[0]?.action).toBe("user.password_reset_sent");
  });

  it("answers 404 for a user that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const response = await admin.post(`/api/admin/users/${missing}/password-reset`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe("This user does not exist.");
  });
});

describe("deleting an account", () => {
  it("erases it as the user's own deletion does, with the admin and reason in the audit log", async () => {
    const { user, client, email } = await signUp(t.app, { verified: true });
    const session = await client.post("/api/sessions", { title: "Soon gone" });
    expect(session.statusCode).toBe(201);
    const noReason = await admin.request("DELETE", `/api/admin/users/${user.id}`, {});
    expect(noReason.statusCode).toBe(400);

    const deleted = await admin.request("DELETE", `/api/admin/users/${user.id}`, {
      reason: "Asked by email on 6 Dec",
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      success: true,
      message: `The account of ${email} and its data were deleted.`,
    });
    expect((await client.get("/api/users/profile")).statusCode).toBe(401);
    expect((await admin.get(`/api/admin/users/${user.id}`)).statusCode).toBe(404);
    const { rows } = await t.db.query("SELECT 1 FROM sessions WHERE user_id = $1", [user.id]);
    expect(rows).toEqual([]);
    const [entry] = await auditFor(user.id);
    expect(entry).toMatchObject({
      action: "account.deleted",
      admin_email: ADMIN_EMAIL,
      reason: "Asked by email on 6 Dec",
      before: { sessions: 1, documents: 0, workspaces_deleted: 1, credits_forfeited: 50 },
    });
  });

  it("refuses the admin's own account and a team's only owner", async () => {
    const me = (await admin.get("/api/users/profile")).json().user.id as string;
    const own = await admin.request("DELETE", `/api/admin/users/${me}`, { reason: "test" });
    expect(own.statusCode).toBe(409);
    expect(own.json().error.message).toBe(
      "You cannot delete your own account from the admin area.",
    );

    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    await createTeam(t.app, owner.user.id, [{ userId: member.user.id, role: "member" }], "Keepers");
    const blocked = await admin.request("DELETE", `/api/admin/users/${owner.user.id}`, {
      reason: "test",
    });
    expect(blocked.statusCode).toBe(409);
    expect((await owner.client.get("/api/users/profile")).statusCode).toBe(200);
  });
});

describe("workspaces", () => {
  it("lists team workspaces with members, roles, caps, the pool and this month's spend", async () => {
    const owner = await signUp(t.app, { firstName: "Olivia", lastName: "Owner" });
    const member = await signUp(t.app, { firstName: "Max", lastName: "Member" });
    const team = await createTeam(
      t.app,
      owner.user.id,
      [{ userId: member.user.id, role: "member" }],
      "Library lending crew",
    );
    await setCredits(t.app, team.id, 500);
    const cap = await owner.client.put(`/api/workspaces/${team.id}/members/${member.user.id}/cap`, {
      monthly_cap_credits: 10,
    });
    expect(cap.statusCode).toBe(200);

    const response = await admin.get("/api/admin/workspaces?q=lending");
    expect(response.statusCode).toBe(200);
    const body = response.json() as TAdminWorkspacesResponse;
    expect(body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(body.workspaces[0]).toMatchObject({
      id: team.id,
      name: "Library lending crew",
      member_count: 2,
      pool_credits: 500,
      month: new Date().toISOString().slice(0, 7),
      spent_credits: 0,
    });
    expect(
      body.workspaces[0]?.members.map((m) => [m.display_name, m.role, m.monthly_cap_credits]),
    ).toEqual([
      ["Olivia Owner", "owner", null],
      ["Max Member", "member", 10],
    ]);
  });
});

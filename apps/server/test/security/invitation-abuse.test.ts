import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOutbox } from "../../src/platform/mail";
import { signUp, uniqueEmail, waitForMail } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import type { TestClient } from "../support/client";
import { createTeam } from "../support/workspaces";

/**
 * Advisory class: invitations as a mail relay. Forty invitations carrying an attacker's
 * phishing text in the workspace name went out, one address got twenty, and the text stood in
 * the subject (decision 052, finding 8). Only a proven address invites; invitations are counted
 * per inviter (20 an hour) and per address (3 an hour) like password resets; the subject is
 * ours alone and the names appear in the body only, quoted (decision 052).
 */

const SUBJECT = "You are invited to a team workspace on Cohort";
const PHISHING = 'URGENT: your account is locked" \n\nLog in at https://evil.example to keep it';
const THROTTLED = /^Too many invitations\. Please try again in \d+ (seconds|minutes)\.$/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const invite = (client: TestClient, teamId: string, email: string) =>
  client.post(`/api/workspaces/${teamId}/invitations`, { email, role: "member" });

async function invitationsTo(email: string) {
  const { rows } = await t.db.query("SELECT 1 FROM workspace_invitations WHERE email = $1", [
    email,
  ]);
  return rows.length;
}

describe("who may invite", () => {
  it("refuses an owner whose address is not verified, and sends nothing", async () => {
    const owner = await signUp(t.app);
    const team = await createTeam(t.app, owner.user.id);
    const target = uniqueEmail("target");
    const response = await invite(owner.client, team.id, target);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: {
        code: "inviter_email_unverified",
        message:
          "Confirm your email address before inviting people: use the link we sent you, or send it again from Settings.",
      },
    });
    expect(await invitationsTo(target)).toBe(0);
    await t.app.mailer.settled();
    expect((await listOutbox(t.db)).filter((m) => m.to === target)).toEqual([]);
  });
});

describe("what an invitation says", () => {
  it("keeps the workspace's and the inviter's names out of the subject, quoted in the body", async () => {
    const owner = await signUp(t.app, { verified: true, firstName: "Eve", lastName: 'Admin"' });
    const team = await createTeam(t.app, owner.user.id, [], PHISHING);
    const target = uniqueEmail("reader");
    expect((await invite(owner.client, team.id, target)).statusCode).toBe(201);
    const mail = await waitForMail(t.app, target);
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.text).toContain(
      `"Eve Admin'" (${owner.email}) invited you to join the team workspace "URGENT: your account is locked' Log in at https://evil.example to keep it" on Cohort as a member`,
    );
    expect(mail.html).toContain("<title>You are invited to a team workspace on Cohort</title>");
  });
});

describe("how many", () => {
  it("sends at most 3 invitations an hour to one address, whoever sends them", async () => {
    const target = uniqueEmail("flooded");
    const senders = await Promise.all([0, 1].map(() => signUp(t.app, { verified: true })));
    const teams = await Promise.all(senders.map((s) => createTeam(t.app, s.user.id)));
    const [a, b] = senders as [(typeof senders)[0], (typeof senders)[0]];
    const [ta, tb] = teams as [(typeof teams)[0], (typeof teams)[0]];
    expect((await invite(a.client, ta.id, target)).statusCode).toBe(201);
    expect((await invite(a.client, ta.id, target)).statusCode).toBe(201);
    expect((await invite(b.client, tb.id, target.toUpperCase())).statusCode).toBe(201);
    const fourth = await invite(b.client, tb.id, target);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe("rate_limited");
    expect(fourth.json().error.message).toMatch(THROTTLED);
    expect(Number(fourth.headers["retry-after"])).toBeGreaterThan(0);
    expect(await invitationsTo(target)).toBe(3);
  });

  it("lets one inviter send at most 20 invitations an hour", async () => {
    const owner = await signUp(t.app, { verified: true });
    const team = await createTeam(t.app, owner.user.id);
    for (let i = 0; i < 20; i += 1) {
      const sent = await invite(owner.client, team.id, uniqueEmail(`batch${i}`));
      expect(sent.statusCode).toBe(201);
    }
    const target = uniqueEmail("one-too-many");
    const refused = await invite(owner.client, team.id, target);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(THROTTLED);
    expect(await invitationsTo(target)).toBe(0);
    // Another inviter is not held back by this one.
    const other = await signUp(t.app, { verified: true });
    const otherTeam = await createTeam(t.app, other.user.id);
    expect((await invite(other.client, otherTeam.id, target)).statusCode).toBe(201);
  });
});

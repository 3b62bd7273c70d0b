import { existsSync } from "node:fs";
import path from "node:path";
import {
  ACCOUNT_DATA_ERROR_CODES,
  ACCOUNT_DATA_MESSAGES,
  ACCOUNT_DATA_ROUTES,
  AUTH_MESSAGES,
  accountDataFilename,
  SIGN_IN_COOKIE,
} from "@cohort/contracts";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { uploadProcessed } from "./support/documents";
import { createSession } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { addTeamMember, createTeam } from "./support/workspaces";

/**
 * "Download my data" and "Delete my account" (decision 044) over HTTP: the zip holds every part
 * of the user's data and nothing of anyone else's; the deletion asks for proof, refuses to
 * orphan a team, and then erases everything but the anonymised ledger.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0" });
});

afterAll(async () => {
  await t?.close();
});

interface Seeded {
  signed: SignedUp;
  sessionId: string;
  teamSessionId: string;
  documentId: string;
  storageKey: string;
  conversationId: string;
  memoryText: string;
  secret: string;
}

/** A user with something of every kind: sessions, a document, CoChat, a memory, credits, a hold. */
async function seedUser(label: string): Promise<Seeded> {
  const signed = await signUpWithCredits(t.app, 40);
  const userId = signed.user.id;
  const secret = `${label}-secret-${userId.slice(0, 8)}`;
  const session = await createSession(signed.client, { title: `${label} plans for Q3` });
  const team = await createTeam(t.app, userId, [], `${label} solo team`);
  const teamSession = await createSession(signed.client, {
    title: `${label} team notes`,
    workspace_id: team.id,
  });
  expect(
    await count("sessions WHERE id = $1 AND workspace_id = $2", [teamSession.id, team.id]),
  ).toBe(1);
  const document = await uploadProcessed(signed.client, `${label}-notes.txt`, `${secret} file`);
  const { rows: keys } = await t.db.query<{ storage_key: string }>(
    "SELECT storage_key FROM documents WHERE id = $1",
    [document.id],
  );
  const conversationId = `cochat-${label}-${Date.now()}`;
  await t.db.query(
    "INSERT INTO cochat_conversations (user_id, id, title, model) VALUES ($1, $2, $3, 'gpt-4o')",
    [userId, conversationId, `${label} chat`],
  );
  await t.db.query(
    `INSERT INTO cochat_messages (user_id, conversation_id, role, content)
     VALUES ($1, $2, 'user', $3), ($1, $2, 'assistant', 'Hello back')`,
    [userId, conversationId, `${secret} question`],
  );
  const memoryText = `${label} prefers tea in the afternoon`;
  await t.db.query(
    "INSERT INTO memories (user_id, text, kind, status) VALUES ($1, $2, 'preference', 'approved')",
    [userId, memoryText],
  );
  await t.db.query(
    `INSERT INTO usage_events (user_id, reference, model, provider, input_tokens, output_tokens, credits)
     VALUES ($1, $2, 'gpt-4o', 'openai', 10, 20, 150)`,
    [userId, `test:${userId}`],
  );
  // An open hold, as a run in progress leaves one.
  await t.db.query("UPDATE credit_accounts SET held = held + 500 WHERE user_id = $1", [userId]);
  await t.db.query(
    `INSERT INTO credit_holds (user_id, reference, amount, expires_at)
     VALUES ($1, $2, 500, now() + interval '1 hour')`,
    [userId, `hold:${userId}`],
  );
  return {
    signed,
    sessionId: session.id,
    teamSessionId: teamSession.id,
    documentId: document.id,
    storageKey: keys[0]?.storage_key ?? "",
    conversationId,
    memoryText,
    secret,
  };
}

async function downloadZip(client: TestClient) {
  const response = await client.get(ACCOUNT_DATA_ROUTES.export);
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toBe("application/zip");
  expect(response.headers["content-disposition"]).toBe(
    `attachment; filename="${accountDataFilename()}"`,
  );
  return JSZip.loadAsync(response.rawPayload);
}

async function readJson(zip: JSZip, name: string) {
  const file = zip.file(name);
  if (!file) throw new Error(`${name} is not in the zip: ${Object.keys(zip.files).join(", ")}`);
  return JSON.parse(await file.async("string"));
}

const count = async (sql: string, params: unknown[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n;

describe("download my data", () => {
  let a: Seeded;
  let b: Seeded;

  beforeAll(async () => {
    a = await seedUser("alice");
    b = await seedUser("bob");
  });

  it("holds every part of the user's data, and nothing of another user's", async () => {
    const zip = await downloadZip(a.signed.client);
    const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir);
    const today = new Date().toISOString().slice(0, 10);
    expect(names.sort()).toEqual(
      [
        "README.txt",
        "profile.json",
        "workspaces.json",
        "memories.json",
        "ledger.json",
        "documents.json",
        `sessions/${today}-alice-plans-for-q3-${a.sessionId}.json`,
        `sessions/${today}-alice-team-notes-${a.teamSessionId}.json`,
        `cochat/${a.conversationId}.json`,
        `documents/${a.documentId}-alice-notes.txt`,
      ].sort(),
    );

    expect(await zip.file("README.txt")?.async("string")).toContain("ledger.json");
    const profile = await readJson(zip, "profile.json");
    expect(profile.profile).toMatchObject({ id: a.signed.user.id, email: a.signed.email });
    expect(profile.sign_in).toEqual({ has_password: true, identities: [] });
    expect(profile.agreement_acceptances).toHaveLength(1);
    expect(profile.settings.memory).toEqual({ paused: false, auto_save: false });

    const workspaces = await readJson(zip, "workspaces.json");
    expect(
      workspaces.workspaces.map((w: { kind: string; name: string; role: string }) => [
        w.kind,
        w.name,
        w.role,
      ]),
    ).toEqual([
      ["personal", "Personal", "owner"],
      ["team", "alice solo team", "owner"],
    ]);

    const session = await readJson(zip, `sessions/${today}-alice-plans-for-q3-${a.sessionId}.json`);
    expect(session).toMatchObject({
      format: "cohort.session",
      session: { id: a.sessionId, title: "alice plans for Q3" },
    });

    const chat = await readJson(zip, `cochat/${a.conversationId}.json`);
    expect(chat.conversation).toMatchObject({ id: a.conversationId, title: "alice chat" });
    expect(chat.messages.map((m: { content: string }) => m.content)).toEqual([
      `${a.secret} question`,
      "Hello back",
    ]);

    const documents = await readJson(zip, "documents.json");
    expect(documents.documents).toHaveLength(1);
    expect(documents.documents[0]).toMatchObject({
      id: a.documentId,
      name: "alice-notes.txt",
      file: `documents/${a.documentId}-alice-notes.txt`,
    });
    expect(await zip.file(`documents/${a.documentId}-alice-notes.txt`)?.async("string")).toBe(
      `${a.secret} file`,
    );

    const memories = await readJson(zip, "memories.json");
    expect(memories.memories.map((m: { text: string }) => m.text)).toEqual([a.memoryText]);

    const ledger = await readJson(zip, "ledger.json");
    expect(ledger.balance).toBe(40);
    expect(ledger.entries.map((e: { delta: number }) => e.delta)).toEqual([40]);
    expect(ledger.usage).toMatchObject([{ model: "gpt-4o", input_tokens: 10, credits: 1.5 }]);

    // Nothing of Bob's anywhere in Alice's zip.
    for (const name of names) {
      const text = await zip.file(name)?.async("string");
      for (const foreign of [
        b.signed.email,
        b.signed.user.id,
        b.sessionId,
        b.documentId,
        b.conversationId,
        b.secret,
        b.memoryText,
        "bob",
      ]) {
        expect(text, `${name} mentions ${foreign}`).not.toContain(foreign);
      }
    }
  });

  it("needs a sign-in", async () => {
    const response = await t.app.inject({ method: "GET", url: ACCOUNT_DATA_ROUTES.export });
    expect(response.statusCode).toBe(401);
  });

  it("allows a few zips per hour per account", async () => {
    const signed = await signUp(t.app);
    for (let i = 0; i < 5; i += 1) {
      expect((await signed.client.get(ACCOUNT_DATA_ROUTES.export)).statusCode).toBe(200);
    }
    const refused = await signed.client.get(ACCOUNT_DATA_ROUTES.export);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
  });
});

describe("delete my account", () => {
  const remove = (client: TestClient, body: unknown) =>
    client.request("DELETE", ACCOUNT_DATA_ROUTES.account, body);

  it("refuses a wrong password with 403 and changes nothing", async () => {
    const a = await seedUser("wrongpw");
    const response = await remove(a.signed.client, { confirm: "DELETE", password: "not it" });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({
      code: ACCOUNT_DATA_ERROR_CODES.confirmationFailed,
      message: ACCOUNT_DATA_MESSAGES.wrongPassword,
    });
    const missing = await remove(a.signed.client, { confirm: "DELETE" });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.message).toBe(ACCOUNT_DATA_MESSAGES.passwordRequired);
    const unconfirmed = await remove(a.signed.client, {
      confirm: "delete",
      password: a.signed.password,
    });
    expect(unconfirmed.statusCode).toBe(400);

    expect((await a.signed.client.get("/api/users/profile")).statusCode).toBe(200);
    expect((await a.signed.client.get(`/api/documents/${a.documentId}`)).statusCode).toBe(200);
    expect(await count("sessions WHERE user_id = $1", [a.signed.user.id])).toBe(2);
    expect(
      await count("credit_holds WHERE user_id = $1 AND status = 'open'", [a.signed.user.id]),
    ).toBe(1);
  });

  it("refuses with 409 while the user is the only owner of a team with members", async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const team = await createTeam(t.app, owner.user.id, [], "Bakery team");
    await addTeamMember(t.app, team.id, { userId: member.user.id, role: "member" });
    const refused = await remove(owner.client, { confirm: "DELETE", password: owner.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: ACCOUNT_DATA_ERROR_CODES.soleOwner,
      message:
        "You are the only owner of “Bakery team”, which has other members. Make someone else an owner or delete the team first.",
    });
    expect((await owner.client.get("/api/users/profile")).statusCode).toBe(200);

    // With a second owner the team stays, with its other members, and the account goes.
    await t.db.query(
      "UPDATE workspace_members SET role = 'owner' WHERE workspace_id = $1 AND user_id = $2",
      [team.id, member.user.id],
    );
    const deleted = await remove(owner.client, { confirm: "DELETE", password: owner.password });
    expect(deleted.statusCode).toBe(200);
    expect(await count("workspaces WHERE id = $1", [team.id])).toBe(1);
    expect(await count("workspace_members WHERE workspace_id = $1", [team.id])).toBe(1);
  });

  it("erases the account and its data, keeps the ledger anonymised, and records it", async () => {
    const a = await seedUser("doomed");
    const other = await seedUser("bystander");
    const userId = a.signed.user.id;
    // A member's open hold on a team pool that stays (the bystander's team).
    const shared = await createTeam(t.app, other.signed.user.id, [], "bystander shared team");
    await addTeamMember(t.app, shared.id, { userId, role: "member" });
    await t.db.query(
      `INSERT INTO credit_accounts (user_id, balance, held) VALUES ($1, 1000, 300)
       ON CONFLICT (user_id) DO UPDATE SET balance = 1000, held = 300`,
      [shared.id],
    );
    await t.db.query(
      `INSERT INTO credit_holds (user_id, member_id, reference, amount, expires_at)
       VALUES ($1, $2, $3, 300, now() + interval '1 hour')`,
      [shared.id, userId, `hold:member:${userId}`],
    );
    const second = await logIn(t.app, a.signed.email, a.signed.password);
    expect(second.response.statusCode).toBe(200);
    const ledgerRows = await count("credit_ledger WHERE user_id = $1", [userId]);
    const usageRows = await count("usage_events WHERE user_id = $1", [userId]);
    expect(ledgerRows).toBe(1);
    const file = path.join(t.app.config.dataDir, "documents", a.storageKey);
    expect(existsSync(file)).toBe(true);

    const response = await remove(a.signed.client, {
      confirm: "DELETE",
      password: a.signed.password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: ACCOUNT_DATA_MESSAGES.deleted });
    const cleared = response.cookies.find((cookie) => cookie.name === SIGN_IN_COOKIE);
    expect(cleared?.value).toBe("");

    // Signed out everywhere, and the password opens nothing.
    expect((await second.client.get("/api/users/profile")).statusCode).toBe(401);
    const again = await logIn(t.app, a.signed.email, a.signed.password);
    expect(again.response.statusCode).toBe(401);
    expect(again.response.json().error.message).toBe(AUTH_MESSAGES.invalidCredentials);
    expect(await count("sign_ins WHERE user_id = $1", [userId])).toBe(0);

    // The data is gone, the file too.
    expect(await count("users WHERE id = $1", [userId])).toBe(0);
    expect(await count("sessions WHERE user_id = $1", [userId])).toBe(0);
    expect(
      await count("sessions WHERE id = ANY($1::uuid[])", [[a.sessionId, a.teamSessionId]]),
    ).toBe(0);
    expect(await count("documents WHERE user_id = $1", [userId])).toBe(0);
    expect(await count("document_chunks WHERE user_id = $1", [userId])).toBe(0);
    expect(await count("memories WHERE user_id = $1", [userId])).toBe(0);
    expect(await count("cochat_conversations WHERE user_id = $1", [userId])).toBe(0);
    expect(await count("workspaces WHERE name = $1", ["doomed solo team"])).toBe(0);
    expect(await count("workspaces WHERE id = $1", [userId])).toBe(0);
    expect(existsSync(file)).toBe(false);

    // The ledger and usage stay, with nothing left that names a person; no hold is open.
    expect(await count("credit_ledger WHERE user_id = $1", [userId])).toBe(ledgerRows);
    expect(await count("usage_events WHERE user_id = $1", [userId])).toBe(usageRows);
    expect(await count("credit_holds WHERE user_id = $1 AND status = 'open'", [userId])).toBe(0);
    expect(await count("credit_accounts WHERE user_id = $1", [userId])).toBe(0);
    expect(await count("credit_holds WHERE member_id = $1 AND status = 'open'", [userId])).toBe(0);
    expect(await count("credit_accounts WHERE user_id = $1 AND held = 0", [shared.id])).toBe(1);
    expect(await count("workspace_members WHERE workspace_id = $1", [shared.id])).toBe(1);

    const { rows: audit } = await t.db.query<{
      admin_id: string;
      admin_email: string;
      before: unknown;
      reason: string;
    }>(
      "SELECT admin_id, admin_email, before, reason FROM admin_audit_log WHERE action = 'account.deleted' AND target_id = $1",
      [userId],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      admin_id: userId,
      admin_email: "",
      before: { sessions: 2, documents: 1, workspaces_deleted: 2, credits_forfeited: 40 },
      reason: "Deleted by the account holder",
    });
    expect(JSON.stringify(audit[0])).not.toContain(a.signed.email);

    // Another account is untouched.
    expect((await other.signed.client.get("/api/users/profile")).statusCode).toBe(200);
    expect(await count("sessions WHERE user_id = $1", [other.signed.user.id])).toBe(2);
    expect(
      (await other.signed.client.get(`/api/documents/${other.documentId}/download`)).body,
    ).toBe(`${other.secret} file`);
  });

  it("asks an account without a password for its email address instead", async () => {
    const signed = await signUp(t.app);
    await t.db.query("DELETE FROM password_credentials WHERE user_id = $1", [signed.user.id]);
    const wrong = await remove(signed.client, { confirm: "DELETE", email: "someone@example.com" });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.message).toBe(ACCOUNT_DATA_MESSAGES.wrongEmail);
    const right = await remove(signed.client, {
      confirm: "DELETE",
      email: signed.email.toUpperCase(),
    });
    expect(right.statusCode).toBe(200);
    expect(await count("users WHERE id = $1", [signed.user.id])).toBe(0);
  });
});

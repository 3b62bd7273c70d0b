import { ACCOUNT_DISABLED, SERVER_EVENTS } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, logIn, publishAgreement, signUp, TEST_PASSWORD } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import { exampleFor } from "./support/json-schema-arbitrary";
import { bodySchemaOf, listOperations } from "./support/openapi";

const ADMIN_EMAIL = "console-admin@cohort.example";
const ADMIN_PASSWORD = "an admin passphrase for the console";

let t: TestApp;
let admin: TestClient;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL, ADMIN_PASSWORD, SIMULATOR_TOKENS_PER_SECOND: "0" });
  url = await listenLocally(t.app);
  admin = await adminClient(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

function openSocket(token: string): Promise<Socket> {
  const socket = connect(url, { transports: ["polling"], reconnection: false, auth: { token } });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.on(SERVER_EVENTS.ready, () => resolve(socket));
    socket.on("connect_error", reject);
  });
}

async function auditFor(targetId: string) {
  const response = await admin.get(`/api/admin/audit?targetId=${targetId}`);
  expect(response.statusCode).toBe(200);
  return response.json().entries as { action: string; before: unknown; after: unknown }[];
}

/** Bodies the schema example generator cannot make valid (formats such as dates). */
const VALID_BODIES: Record<string, unknown> = {
  "POST /api/admin/agreements": {
    version: "guard",
    content: "x",
    effectiveDate: "2026-01-01",
    allowDecline: false,
  },
};

describe("admin guard on every admin route", () => {
  it("answers 401 to anonymous callers and 403 to signed-in users", async () => {
    const routes = (await listOperations(t.app)).filter(
      (op) => op.path.startsWith("/api/admin/") && op.path !== "/api/admin/login",
    );
    expect(routes.length).toBeGreaterThanOrEqual(14);
    const { client: user } = await signUp(t.app);
    const anonymous = new TestClient(t.app);
    for (const op of routes) {
      const path = op.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
      const method = op.method as "GET" | "POST" | "PUT";
      // A valid request, so the answer is the guard's and not the schema's 400.
      const body =
        method === "GET"
          ? undefined
          : (VALID_BODIES[`${method} ${op.path}`] ?? exampleFor(bodySchemaOf(op)) ?? {});
      const refused = await anonymous.request(method, path, body);
      expect(refused.statusCode, `${method} ${path}`).toBe(401);
      const forbidden = await user.request(method, path, body);
      expect(forbidden.statusCode, `${method} ${path}`).toBe(403);
      expect(forbidden.json().error.code).toBe("forbidden");
    }
  });

  it("needs the CSRF token for actions with the admin's cookie", async () => {
    const { user } = await signUp(t.app);
    const response = await admin.request(
      "POST",
      `/api/admin/users/${user.id}/credits`,
      { delta: 5, reason: "no token" },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain("CSRF");
  });
});

describe("users", () => {
  it("searches, sorts and pages", async () => {
    const a = await signUp(t.app, { email: `aaa-sort-${Date.now()}@example.com` });
    const z = await signUp(t.app, { email: `zzz-sort-${Date.now()}@example.com` });
    const newest = (await admin.get("/api/admin/users?q=-sort-&sort=newest")).json();
    expect(newest.users.map((u: { id: string }) => u.id)).toEqual([z.user.id, a.user.id]);
    const byEmail = (await admin.get("/api/admin/users?q=-sort-&sort=email&pageSize=1")).json();
    expect(byEmail).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(byEmail.users[0].id).toBe(a.user.id);
    expect(byEmail.users[0].disabled_at).toBeNull();
    expect((await admin.get("/api/admin/users?sort=sideways")).statusCode).toBe(400);
  });

  it("adjusts credits with a required reason: a ledger row and an audit entry", async () => {
    const { user, client } = await signUp(t.app);
    const missing = await admin.post(`/api/admin/users/${user.id}/credits`, { delta: 5 });
    expect(missing.statusCode).toBe(400);

    const granted = await admin.post(`/api/admin/users/${user.id}/credits`, {
      delta: 12.5,
      reason: "Refund for ticket 42",
      idempotencyKey: "ticket-42-refund",
    });
    expect(granted.json()).toMatchObject({ applied: true, balance: 12.5 });
    const again = await admin.post(`/api/admin/users/${user.id}/credits`, {
      delta: 12.5,
      reason: "Refund for ticket 42",
      idempotencyKey: "ticket-42-refund",
    });
    expect(again.json()).toMatchObject({ applied: false, balance: 12.5 });

    const detail = (await admin.get(`/api/admin/users/${user.id}`)).json();
    expect(detail.user.credits_remaining).toBe(12.5);
    expect(detail.ledger[0]).toMatchObject({
      delta: 12.5,
      reason: "admin_adjustment",
      description: "Refund for ticket 42",
    });
    expect(detail.sign_ins).toHaveLength(1);
    expect(detail.sessions_count).toBe(0);
    const ledger = (await client.get("/api/billing/ledger")).json();
    expect(ledger.entries[0].description).toBe("Refund for ticket 42");

    const audit = await auditFor(user.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "credits.adjust",
      admin_email: ADMIN_EMAIL,
      before: { balance: 0 },
      after: { balance: 12.5, delta: 12.5 },
      reason: "Refund for ticket 42",
      request_id: expect.any(String),
    });
  });

  it("changes the tier, audited with before and after", async () => {
    const { user } = await signUp(t.app);
    const response = await admin.put(`/api/admin/users/${user.id}/tier`, { tier: "pro" });
    expect(response.json().user).toMatchObject({ subscription_tier: "pro", cochat_access: true });
    expect(await auditFor(user.id)).toEqual([
      expect.objectContaining({
        action: "user.tier",
        before: { tier: "free" },
        after: { tier: "pro" },
      }),
    ]);
  });

  it("disables an account: sign-ins end, sockets close, no new sign-in; enabling undoes it", async () => {
    const { user, client, token, email } = await signUp(t.app);
    const socket = await openSocket(token);
    const dropped = new Promise<string>((resolve) => socket.on("disconnect", resolve));

    const disabled = await admin.put(`/api/admin/users/${user.id}/disabled`, {
      disabled: true,
      reason: "Chargeback fraud",
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user.disabled_at).toEqual(expect.any(String));
    expect(disabled.json().sign_ins).toEqual([]);
    expect(await dropped).toBe("io server disconnect");
    expect((await client.get("/api/users/profile")).statusCode).toBe(401);

    const refused = await logIn(t.app, email, TEST_PASSWORD);
    expect(refused.response.statusCode).toBe(403);
    expect(refused.response.json().error).toEqual(ACCOUNT_DISABLED);
    const wrong = await logIn(t.app, email, "not the password at all");
    expect(wrong.response.statusCode).toBe(401);

    const enabled = await admin.put(`/api/admin/users/${user.id}/disabled`, {
      disabled: false,
      reason: "Resolved with the bank",
    });
    expect(enabled.json().user.disabled_at).toBeNull();
    expect((await logIn(t.app, email, TEST_PASSWORD)).response.statusCode).toBe(200);

    expect((await auditFor(user.id)).map((entry) => entry.action)).toEqual([
      "user.enable",
      "user.disable",
    ]);
  });

  it("refuses to disable the admin's own account", async () => {
    const me = (await admin.get("/api/users/profile")).json().user;
    const response = await admin.put(`/api/admin/users/${me.id}/disabled`, {
      disabled: true,
      reason: "oops",
    });
    expect(response.statusCode).toBe(409);
  });

  it("revokes every sign-in while the account stays usable", async () => {
    const { user, client, email } = await signUp(t.app);
    const second = await logIn(t.app, email, TEST_PASSWORD);
    const response = await admin.post(`/api/admin/users/${user.id}/revoke-sign-ins`);
    expect(response.json()).toEqual({ revoked: 2 });
    expect((await client.get("/api/users/profile")).statusCode).toBe(401);
    expect((await second.client.get("/api/users/profile")).statusCode).toBe(401);
    expect((await logIn(t.app, email, TEST_PASSWORD)).response.statusCode).toBe(200);
    expect((await auditFor(user.id))[0]).toMatchObject({ action: "user.revoke_sign_ins" });
  });

  it("answers 404 for an unknown user", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await admin.get(`/api/admin/users/${unknown}`)).statusCode).toBe(404);
    const disable = await admin.put(`/api/admin/users/${unknown}/disabled`, {
      disabled: true,
      reason: "x",
    });
    expect(disable.statusCode).toBe(404);
  });
});

describe("agreements", () => {
  it("publishes a version, counts acceptances and lists who has not accepted", async () => {
    const before = await signUp(t.app);
    const published = await publishAgreement(admin, "9.0-console", {
      effectiveDate: "2026-11-01",
      content: "# Terms\n\nNew terms.",
    });
    const after = await signUp(t.app);

    const versions = (await admin.get("/api/admin/agreements")).json();
    expect(versions.versions[0]).toMatchObject({
      version: "9.0-console",
      current: true,
      acceptances: 1,
      declines: 0,
    });
    expect(versions.versions[1].current).toBe(false);

    const pending = (await admin.get("/api/admin/agreements/pending?pageSize=100")).json();
    expect(pending.version).toBe("9.0-console");
    const ids = pending.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(before.user.id);
    expect(ids).not.toContain(after.user.id);
    expect(pending.total).toBe(pending.users.length);

    const audit = (await admin.get("/api/admin/audit?action=agreement.publish")).json();
    expect(audit.entries[0]).toMatchObject({
      target_id: published.id,
      after: { version: "9.0-console" },
    });
  });
});

describe("models", () => {
  it("switches a model off and overrides its price without a restart, audited", async () => {
    const listed = (await admin.get("/api/admin/models")).json();
    const target = listed.models.find(
      (m: { kind: string; required: boolean }) => m.kind === "external" && !m.required,
    );
    expect(target).toBeDefined();
    expect(listed.providers.length).toBeGreaterThan(0);

    const price = { input_per_1k: 0.5, output_per_1k: 1.25 };
    const priced = await admin.put(`/api/admin/models/${target.id}`, {
      enabled: true,
      price,
      reason: "Promotion",
    });
    expect(priced.statusCode).toBe(200);
    const model = (await new TestClient(t.app).get(`/api/models/${target.id}`)).json();
    expect(model.model.price).toEqual(price);

    const off = await admin.put(`/api/admin/models/${target.id}`, {
      enabled: false,
      price: null,
      reason: "Provider incident",
    });
    expect(off.json().models.find((m: { id: string }) => m.id === target.id)).toMatchObject({
      enabled: false,
      price_overridden: false,
    });
    const publicList = (await new TestClient(t.app).get("/api/ai/models")).json();
    expect(publicList.models.map((m: { id: string }) => m.id)).not.toContain(target.id);

    const audit = (await admin.get(`/api/admin/audit?targetId=${target.id}`)).json();
    expect(audit.entries.map((e: { after: { enabled: boolean } }) => e.after.enabled)).toEqual([
      false,
      true,
    ]);

    await admin.put(`/api/admin/models/${target.id}`, {
      enabled: true,
      price: null,
      reason: "Back",
    });
    const back = (await new TestClient(t.app).get("/api/ai/models")).json();
    expect(back.models.map((m: { id: string }) => m.id)).toContain(target.id);
  });

  it("refuses to switch off a default model", async () => {
    const listed = (await admin.get("/api/admin/models")).json();
    const required = listed.models.find((m: { required: boolean }) => m.required);
    const response = await admin.put(`/api/admin/models/${required.id}`, {
      enabled: false,
      price: null,
      reason: "x",
    });
    expect(response.statusCode).toBe(409);
  });
});

describe("overview", () => {
  it("counts per day and per model", async () => {
    const { user, client } = await signUp(t.app);
    await admin.post(`/api/admin/users/${user.id}/credits`, { delta: 3, reason: "overview" });
    await admin.put(`/api/admin/users/${user.id}/tier`, { tier: "pro" });
    const chat = await client.post("/api/cochat/chat", {
      messages: [{ role: "user", content: "Hello from the overview test" }],
    });
    expect(chat.statusCode).toBe(200);

    const overview = (await admin.get("/api/admin/overview?days=7")).json();
    expect(overview.days).toHaveLength(7);
    const today = overview.days.at(-1);
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.signups).toBeGreaterThanOrEqual(1);
    expect(today.credits_granted).toBeGreaterThanOrEqual(3);
    expect(today.cochat_messages).toBeGreaterThanOrEqual(1);
    expect(overview.totals.users).toBeGreaterThanOrEqual(1);
    expect(overview.models).toContainEqual(
      expect.objectContaining({ model_id: "cochat", calls: 1, errors: 0 }),
    );
    expect((await admin.get("/api/admin/overview?days=3")).statusCode).toBe(400);
  });
});

describe("audit log", () => {
  it("is append-only in the database", async () => {
    await expect(t.db.query("UPDATE admin_audit_log SET reason = 'x'")).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.query("DELETE FROM admin_audit_log")).rejects.toThrow(/append-only/);
    const page = (await admin.get("/api/admin/audit?sort=oldest&pageSize=2")).json();
    expect(page.entries).toHaveLength(2);
    expect(Number(page.entries[0].id)).toBeLessThan(Number(page.entries[1].id));
    expect(page.total).toBeGreaterThan(2);
  });
});

describe("logs and analytics views", () => {
  it("serves the telemetry store's entries, trails and summary to admins", async () => {
    const logs = await admin.get("/api/admin/logs?level=error&pageSize=10");
    expect(logs.statusCode).toBe(200);
    expect(logs.json()).toMatchObject({ page: 1, pageSize: 10, entries: expect.any(Array) });
    expect((await admin.get("/api/admin/logs?level=loud")).statusCode).toBe(400);
    expect((await admin.get("/api/admin/logs/requests/never-seen-id")).statusCode).toBe(404);
    expect((await admin.get("/api/admin/logs/requests/a%20b")).statusCode).toBe(400);
    const analytics = await admin.get("/api/admin/analytics");
    expect(analytics.statusCode).toBe(200);
    expect(analytics.json().funnel.map((step: { step: string }) => step.step)).toEqual([
      "landing",
      "sign_up",
      "first_run",
      "purchase",
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireAgreement } from "../src/modules/agreements/require-agreement";
import { USER_AGREEMENT_V1 } from "../src/modules/agreements/user-agreement-v1";
import { adminClient, publishAgreement, signUp, uniqueEmail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

const ADMIN_EMAIL = "admin@cohort.example";
const ADMIN_PASSWORD = "admin passphrase for tests";

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL, ADMIN_PASSWORD });
  // A product call guarded the way sessions, ai, cochat and billing mutations will be.
  t.app.post("/api/__test/guarded", { preHandler: requireAgreement }, async () => ({ ok: true }));
  await t.app.ready();
  admin = await adminClient(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(() => t.close());

async function currentAgreement(client = new TestClient(t.app)) {
  const response = await client.get("/api/agreements/current");
  expect(response.statusCode).toBe(200);
  return response.json().agreement as { id: string; version: string; allowDecline: boolean };
}

function publish(version: string, allowDecline = false) {
  return publishAgreement(admin, version, { allowDecline });
}

describe("the current agreement", () => {
  it("is the seeded Cohort User Agreement v1, public, long enough to scroll", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/agreements/current" });
    expect(response.statusCode).toBe(200);
    const { agreement } = response.json();
    expect(agreement).toEqual({
      id: expect.any(String),
      version: "1.0",
      effectiveDate: "2025-01-01",
      content: USER_AGREEMENT_V1.content,
      allowDecline: false,
    });
    expect(agreement.content).toContain("# Cohort User Agreement");
    for (const section of [
      "Acceptance",
      "The service",
      "Your account",
      "Acceptable use",
      "AI output",
      "Credits, plans and payments",
      "Your content",
      "Provider API keys",
      "Privacy",
      "termination",
      "Liability",
      "Changes to this agreement",
      "Contact",
    ]) {
      expect(agreement.content).toMatch(new RegExp(`## \\d+\\. .*${section}`, "i"));
    }
    expect(agreement.content.split("\n").length).toBeGreaterThan(100);
  });
});

describe("acceptance", () => {
  it("records the acceptance given at sign-up", async () => {
    const { client } = await signUp(t.app);
    const status = await client.get("/api/agreements/check-required");
    expect(status.statusCode).toBe(200);
    const body = status.json();
    expect(body.requiresAcceptance).toBe(false);
    expect(body.agreement.version).toBe(USER_AGREEMENT_V1.version);
    expect(new Date(body.lastAcceptedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const history = (await client.get("/api/agreements/history")).json();
    expect(history.acceptances).toEqual([
      {
        id: expect.any(String),
        agreementId: body.agreement.id,
        version: body.agreement.version,
        acceptedAt: body.lastAcceptedAt,
        source: "web",
      },
    ]);
  });

  it("guards product calls until the current version is accepted, and again after a new one", async () => {
    const { client } = await signUp(t.app, { acceptAgreement: false });
    const status = (await client.get("/api/agreements/check-required")).json();
    expect(status).toMatchObject({ requiresAcceptance: true, lastAcceptedAt: null });

    const blocked = await client.post("/api/__test/guarded");
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe("agreement_required");

    const accept = await client.post("/api/agreements/accept", {
      agreementId: status.agreement.id,
      source: "web",
    });
    expect(accept.statusCode).toBe(200);
    expect(accept.json()).toMatchObject({
      success: true,
      acceptance: { agreementId: status.agreement.id, source: "web" },
    });
    expect((await client.post("/api/__test/guarded")).statusCode).toBe(200);
    expect((await client.get("/api/agreements/check-required")).json().requiresAcceptance).toBe(
      false,
    );

    const v2 = await publish("2.0");
    const again = await client.get("/api/agreements/check-required");
    expect(again.json()).toMatchObject({
      requiresAcceptance: true,
      agreement: { id: v2.id, version: "2.0", effectiveDate: "2026-03-01" },
    });
    expect((await client.post("/api/__test/guarded")).json().error.code).toBe("agreement_required");

    const old = await client.post("/api/agreements/accept", {
      agreementId: status.agreement.id,
      source: "web",
    });
    expect(old.statusCode).toBe(409);
    expect(old.json().error.code).toBe("agreement_not_current");

    expect((await client.post("/api/agreements/accept", { agreementId: v2.id })).statusCode).toBe(
      200,
    );
    expect((await client.post("/api/__test/guarded")).statusCode).toBe(200);
    const history = (await client.get("/api/agreements/history")).json().acceptances;
    expect(history.map((a: { version: string }) => a.version)).toEqual(["2.0", "1.0"]);
  });

  it("accepting twice keeps the first record", async () => {
    const { client } = await signUp(t.app);
    const current = await currentAgreement(client);
    const first = (await client.post("/api/agreements/accept", { agreementId: current.id })).json();
    const second = (
      await client.post("/api/agreements/accept", { agreementId: current.id })
    ).json();
    expect(second.acceptance).toEqual(first.acceptance);
  });

  it("refuses an unknown agreement id", async () => {
    const { client } = await signUp(t.app);
    for (const agreementId of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const response = await client.post("/api/agreements/accept", { agreementId });
      expect(response.statusCode).toBe(404);
    }
  });

  it("needs a session for everything but the current agreement", async () => {
    const client = new TestClient(t.app);
    expect((await client.get("/api/agreements/check-required")).statusCode).toBe(401);
    expect((await client.get("/api/agreements/history")).statusCode).toBe(401);
    expect((await client.post("/api/agreements/accept", { agreementId: "x" })).statusCode).toBe(
      401,
    );
    expect((await client.post("/api/agreements/decline")).statusCode).toBe(401);
    expect((await client.post("/api/__test/guarded")).statusCode).toBe(401);
  });

  it("records an older version accepted in the sign-up modal, then asks for the current one", async () => {
    const shown = await currentAgreement();
    await publish("2.1");
    // The modal showed the old version; the browser sends its id after the new one appeared.
    const stale = new TestClient(t.app);
    const response = await stale.post("/api/user-auth/signup", {
      email: uniqueEmail("stale"),
      password: "a perfectly fine passphrase",
      firstName: "Slow",
      lastName: "Browser",
      agreementId: shown.id,
    });
    expect(response.statusCode).toBe(201);
    const status = (await stale.get("/api/agreements/check-required")).json();
    expect(status.requiresAcceptance).toBe(true);
    expect(status.agreement.version).toBe("2.1");
    expect((await stale.get("/api/agreements/history")).json().acceptances[0].agreementId).toBe(
      shown.id,
    );
  });
});

describe("declining", () => {
  it("is refused with the spec's text unless the version allows it", async () => {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/agreements/decline", {});
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({
      code: "agreement_decline_not_allowed",
      message: "You must accept the agreement to continue using Cohort",
    });
  });

  it("is recorded where allowed, and the version then stops blocking", async () => {
    const optional = await publish("3.0-optional", true);
    const { client } = await signUp(t.app);
    expect((await client.post("/api/__test/guarded")).statusCode).toBe(200);
    const { client: fresh } = await signUp(t.app, { acceptAgreement: false });
    expect((await fresh.get("/api/agreements/check-required")).json()).toMatchObject({
      requiresAcceptance: true,
      agreement: { id: optional.id, allowDecline: true },
    });
    const decline = await fresh.post("/api/agreements/decline", { agreementId: optional.id });
    expect(decline.statusCode).toBe(200);
    expect(decline.json().success).toBe(true);
    expect((await fresh.get("/api/agreements/check-required")).json().requiresAcceptance).toBe(
      false,
    );
    expect((await fresh.post("/api/__test/guarded")).statusCode).toBe(200);
  });
});

describe("admin publishing", () => {
  it("is for admins only and refuses a version number twice", async () => {
    const body = { version: "9.9", content: "x", effectiveDate: "2026-01-01", allowDecline: false };
    expect((await new TestClient(t.app).post("/api/admin/agreements", body)).statusCode).toBe(401);
    const { client } = await signUp(t.app);
    expect((await client.post("/api/admin/agreements", body)).statusCode).toBe(403);
    expect((await admin.post("/api/admin/agreements", body)).statusCode).toBe(201);
    const twice = await admin.post("/api/admin/agreements", body);
    expect(twice.statusCode).toBe(409);
    const bad = await admin.post("/api/admin/agreements", {
      ...body,
      version: "10",
      effectiveDate: "soon",
    });
    expect(bad.statusCode).toBe(400);
  });
});

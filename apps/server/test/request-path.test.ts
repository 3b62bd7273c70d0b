import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { setUserRole } from "../src/modules/users/set-user-role";
import { adminClient, logIn, publishAgreement, signUp } from "./support/accounts";
import { createTestDb, type TestDb, testConfig } from "./support/app";
import type { TestClient } from "./support/client";
import { recording } from "./support/recording-db";
import { createSession } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * What every authenticated product call costs, and that what the request path keeps in
 * memory (decision 016) never outlives a change: a new agreement version, an acceptance on
 * another instance, a revoked sign-in, a changed role. Two app instances share one database,
 * as instances behind a load balancer do (with Redis on the PostgreSQL run).
 */
const ADMIN_EMAIL = "admin@cohort.example";
const ADMIN_PASSWORD = "admin passphrase for tests";

let testDb: TestDb;
let statements: string[];
let a: FastifyInstance;
let b: FastifyInstance;
let adminA: TestClient;

beforeAll(async () => {
  testDb = await createTestDb();
  const recorded = recording(testDb.db);
  statements = recorded.statements;
  const redisPrefix = `test:${randomBytes(6).toString("hex")}:`;
  // No background sweeps (credits, and on PostgreSQL orphaned runs every 5 s): only the
  // requests below talk to the database.
  const env = {
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    CREDITS_SWEEP_INTERVAL_SECONDS: "0",
    RUN_SWEEP_INTERVAL_SECONDS: "0",
  };
  a = await buildApp(testConfig(env), { db: recorded.db, redisPrefix });
  b = await buildApp(testConfig(env), { db: testDb.db, redisPrefix });
  adminA = await adminClient(a, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await a.close();
  await b.close();
  await testDb.drop();
});

let published = 0;
function publishNewVersion(): Promise<{ id: string; version: string }> {
  published += 1;
  return publishAgreement(adminA, `9.${published}`);
}

describe("an authenticated product call", () => {
  it("costs one statement once the agreement is known: the sign-in with the page", async () => {
    const { client } = await signUp(a);
    for (const title of ["One", "Two", "Three"]) {
      expect((await client.post("/api/sessions", { title })).statusCode).toBe(201);
    }
    expect((await client.get("/api/sessions")).statusCode).toBe(200);

    statements.length = 0;
    const response = await client.get("/api/sessions?pageSize=2");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(response.json().sessions.map((s: { title: string }) => s.title)).toEqual([
      "Three",
      "Two",
    ]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM sign_ins s JOIN users u/);
    expect(statements.join("\n")).not.toMatch(/agreement/);

    // The same page again: the statement finds the kept page's version unchanged and sends
    // no text; still one statement, the same answer (decision 089).
    statements.length = 0;
    const again = await client.get("/api/sessions?pageSize=2");
    expect(again.payload).toBe(response.payload);
    expect(statements).toHaveLength(1);
  });

  it("gives the same page with a search, ridden or named by its workspace id", async () => {
    const { client, user } = await signUp(a);
    for (const title of ["Alpha one", "Beta", "Alpha two"]) {
      expect((await client.post("/api/sessions", { title })).statusCode).toBe(201);
    }
    statements.length = 0;
    const ridden = await client.get("/api/sessions?q=alpha&pageSize=5");
    expect(statements).toHaveLength(1);
    statements.length = 0;
    const named = await client.get(`/api/sessions?q=alpha&pageSize=5&workspace_id=${user.id}`);
    expect(statements).toHaveLength(2);
    expect(ridden.statusCode).toBe(200);
    expect(ridden.json().sessions.map((s: { title: string }) => s.title)).toEqual([
      "Alpha two",
      "Alpha one",
    ]);
    expect(ridden.json()).toMatchObject({ total: 2, page: 1, pageSize: 5 });
    expect(named.json()).toEqual(ridden.json());
  });

  it("still counts every session on a page past the end", async () => {
    const { client } = await signUp(a);
    expect((await client.post("/api/sessions", { title: "Only" })).statusCode).toBe(201);
    const response = await client.get("/api/sessions?page=5&pageSize=10");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ sessions: [], total: 1, page: 5 });
  });
});

describe("a new agreement version", () => {
  it("is required on the very next product call, on this instance and soon on the other", async () => {
    const { client } = await signUp(a);
    const other = client.on(b);
    expect((await client.get("/api/sessions")).statusCode).toBe(200);
    expect((await other.get("/api/sessions")).statusCode).toBe(200);

    const agreement = await publishNewVersion();
    const next = await client.get("/api/sessions");
    expect(next.statusCode).toBe(403);
    expect(next.json().error).toMatchObject({
      code: "agreement_required",
      details: { agreementId: agreement.id, version: agreement.version },
    });
    // The other instance hears of it through Redis, or within a second without it.
    await expect
      .poll(async () => (await other.get("/api/sessions")).statusCode, { timeout: 5_000 })
      .toBe(403);

    // An acceptance counts at once everywhere: a missing decision is never remembered.
    const accepted = await client.post("/api/agreements/accept", {
      agreementId: agreement.id,
    });
    expect(accepted.statusCode).toBe(200);
    expect((await other.get("/api/sessions")).statusCode).toBe(200);
    expect((await client.get("/api/sessions")).statusCode).toBe(200);
  });
});

describe("a sign-in", () => {
  it("stops working on the very next request once revoked, on every instance", async () => {
    const { email, password } = await signUp(a);
    const first = await logIn(a, email, password);
    const second = await logIn(a, email, password);
    expect(first.response.statusCode).toBe(200);
    const firstOnB = first.client.on(b);
    expect((await first.client.get("/api/sessions")).statusCode).toBe(200);
    expect((await firstOnB.get("/api/sessions")).statusCode).toBe(200);

    const revoked = await second.client.delete(
      `/api/auth/sign-ins/${await currentSignInId(first.client)}`,
    );
    expect(revoked.statusCode).toBe(200);

    expect((await first.client.get("/api/sessions")).statusCode).toBe(401);
    expect((await firstOnB.get("/api/sessions")).statusCode).toBe(401);
    expect((await second.client.get("/api/sessions")).statusCode).toBe(200);
  });

  it("carries the user's current role on the very next request", async () => {
    const { client, user } = await signUp(a);
    const onB = client.on(b);
    expect((await onB.get("/api/admin/users")).statusCode).toBe(403);
    // Roles change only through the users module (an ADMIN_EMAIL set on another instance).
    await setUserRole(testDb.db, user.id, "admin");
    expect((await onB.get("/api/admin/users")).statusCode).toBe(200);
    expect((await client.get("/api/admin/users")).statusCode).toBe(200);
  });
});

describe("provider keys", () => {
  const keyReads = () => statements.filter((sql) => /FROM user_api_keys WHERE/.test(sql));
  const cochatOnKey = async (client: TestClient) => {
    const response = await client.get("/api/cochat/models");
    expect(response.statusCode).toBe(200);
    const models = response.json().data as { id: string; simulated: boolean }[];
    // An OpenAI model: what the user's OpenAI key serves (decision 029).
    return models.find((m) => m.id === "gpt-4o")?.simulated === false;
  };

  it("cost no read for a user without any, and one saved counts on the very next call", async () => {
    const { client } = await signUp(a);
    statements.length = 0;
    expect(await cochatOnKey(client)).toBe(false);
    expect(statements).toHaveLength(1);
    expect(keyReads()).toHaveLength(0);

    const saved = await client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-user-own-key-1234",
    });
    expect(saved.statusCode).toBe(200);
    statements.length = 0;
    expect(await cochatOnKey(client)).toBe(true);
    expect(keyReads()).toHaveLength(1);

    const removed = await client.delete("/api/users/api-keys/openai");
    expect(removed.statusCode).toBe(200);
    statements.length = 0;
    expect(await cochatOnKey(client)).toBe(false);
    expect(keyReads()).toHaveLength(0);
  });
});

describe("a run's start", () => {
  it("reads its session, runs and messages in the sign-in's statement, and writes nothing for a caller it refuses", async () => {
    const { client } = await signUpWithCredits(a, 1_000);
    const session = await createSession(client);
    const outsider = await signUp(a);
    const message = { session_id: session.id, message: "Hello" };
    const wrote = () => statements.filter((sql) => /INSERT|UPDATE/.test(sql));

    statements.length = 0;
    const refused = await outsider.client.post("/api/ai/chat", message);
    expect(refused.statusCode).toBe(404);
    expect(wrote()).toEqual([]);
    statements.length = 0;
    const signedOut = await a.inject({
      method: "POST",
      url: "/api/ai/chat",
      headers: { authorization: "Bearer not-a-sign-in" },
      payload: message,
    });
    expect(signedOut.statusCode).toBe(401);
    expect(wrote()).toEqual([]);

    statements.length = 0;
    const started = await client.post("/api/ai/chat", message);
    expect(started.statusCode).toBe(202);
    // The session with the caller's role, its runs and its messages came with the sign-in:
    // no read of them of its own before the start statement (the run's prefetched reads of
    // its documents, memory and MCP servers go beside the start statement).
    const start = statements.findIndex((sql) => /INSERT INTO session_messages/.test(sql));
    expect(start).toBeGreaterThan(0);
    const before = statements
      .slice(0, start)
      .filter((sql) => /FROM (session_messages|runs|sessions)\b/.test(sql));
    expect(before).toHaveLength(1);
    expect(before[0]).toMatch(/FROM sign_ins s JOIN users u/);
    expect(before[0]).toMatch(/JOIN workspace_members m/);
    expect(before[0]).toMatch(/FROM session_messages/);
    expect(before[0]).toMatch(/FROM runs/);
    await a.orchestration.control.idle();
  });
});

async function currentSignInId(client: TestClient): Promise<string> {
  const response = await client.get("/api/auth/sign-ins");
  const signIns = response.json().sign_ins as { id: string; current: boolean }[];
  const current = signIns.find((s) => s.current);
  if (!current) throw new Error("no current sign-in");
  return current.id;
}

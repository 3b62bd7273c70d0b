import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { signUp, TEST_PASSWORD, uniqueEmail, waitForMail } from "./support/accounts";
import { createTestApp, type TestApp, testConfig } from "./support/app";
import { TestClient } from "./support/client";

const ADMIN_EMAIL = "Root@Cohort.Example";
const ADMIN_PASSWORD = "an admin passphrase";

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAIL, ADMIN_PASSWORD });
  await t.app.ready();
  admin = new TestClient(t.app);
});
afterAll(() => t.close());

describe("admin login", () => {
  it("signs in the configured admin", async () => {
    const response = await admin.post("/api/admin/login", {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      token: expect.any(String),
      user: { email: "root@cohort.example", role: "admin", emailVerified: true },
    });
  });

  it("gives a user who is not an admin the same 401 as a wrong password", async () => {
    const { email } = await signUp(t.app);
    const user = await new TestClient(t.app, "192.0.2.10").post("/api/admin/login", {
      email,
      password: TEST_PASSWORD,
    });
    const wrong = await new TestClient(t.app, "192.0.2.11").post("/api/admin/login", {
      email: ADMIN_EMAIL,
      password: "not the admin password",
    });
    for (const response of [user, wrong]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: "invalid_credentials", message: "Invalid email or password." },
      });
    }
  });
});

describe("admin guard", () => {
  it.each(["/api/admin/outbox", "/api/admin/users"])(
    "answers %s with 401, 403, 200",
    async (url) => {
      expect((await new TestClient(t.app).get(url)).statusCode).toBe(401);
      const { client } = await signUp(t.app);
      const forbidden = await client.get(url);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().error.code).toBe("forbidden");
      expect((await admin.get(url)).statusCode).toBe(200);
    },
  );
});

describe("dev outbox", () => {
  it("lists kept emails newest first, with their working links", async () => {
    const first = await signUp(t.app);
    await waitForMail(t.app, first.email);
    const second = await signUp(t.app);
    await waitForMail(t.app, second.email);
    const { messages } = (await admin.get("/api/admin/outbox")).json();
    const ours = messages.filter((m: { to: string }) => [first.email, second.email].includes(m.to));
    expect(ours.map((m: { to: string }) => m.to)).toEqual([second.email, first.email]);
    expect(ours[0]).toMatchObject({
      id: expect.any(String),
      subject: "Confirm your email address for Cohort",
      text: expect.stringContaining("http://localhost:3000/verify-email?token="),
      html: expect.stringContaining("<a href="),
      created_at: expect.any(String),
    });
  });
});

describe("users list", () => {
  it("pages through users, newest first, and filters by email", async () => {
    const prefix = `pager${Date.now()}`;
    for (let i = 0; i < 3; i++) await signUp(t.app, { email: uniqueEmail(prefix) });
    const page1 = (await admin.get(`/api/admin/users?q=${prefix}&pageSize=2`)).json();
    expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page1.users).toHaveLength(2);
    const page2 = (await admin.get(`/api/admin/users?q=${prefix}&pageSize=2&page=2`)).json();
    expect(page2.users).toHaveLength(1);
    const all = [...page1.users, ...page2.users].map((u: { created_at: string }) => u.created_at);
    expect(all).toEqual([...all].sort().reverse());
    expect((await admin.get("/api/admin/users?pageSize=1000")).statusCode).toBe(400);
  });
});

describe("admin from configuration", () => {
  it("promotes an existing account and changes its password on the next start", async () => {
    const { email, user } = await signUp(t.app);
    const app = await buildApp(
      testConfig({ ADMIN_EMAIL: email, ADMIN_PASSWORD: "the new admin secret" }),
      {
        db: t.db,
      },
    );
    try {
      const client = new TestClient(app);
      const response = await client.post("/api/admin/login", {
        email,
        password: "the new admin secret",
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({ id: user.id, role: "admin" });
    } finally {
      await app.close();
    }
  });

  it("refuses to start with a guessable admin password", async () => {
    await expect(
      buildApp(testConfig({ ADMIN_EMAIL: "x@cohort.example", ADMIN_PASSWORD: "password123" }), {
        db: t.db,
      }),
    ).rejects.toThrow(/ADMIN_PASSWORD: This password is too common/);
  });
});

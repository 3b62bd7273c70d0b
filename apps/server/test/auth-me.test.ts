import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

describe("GET /api/auth/me", () => {
  it("answers a signed-out caller with 200 and no user", async () => {
    const response = await new TestClient(t.app).get("/api/auth/me");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null });
  });

  it("answers a signed-in caller with their profile", async () => {
    const client = new TestClient(t.app);
    const { user } = await signUp(client);
    const response = await client.get("/api/auth/me");
    expect(response.json().user).toMatchObject({ id: user.id, email: user.email });
  });

  it("treats a revoked or bogus token as signed out", async () => {
    const client = new TestClient(t.app);
    client.bearer = "not-a-real-token";
    expect((await client.get("/api/auth/me")).json()).toEqual({ user: null });
  });
});

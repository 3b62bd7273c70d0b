import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: "3" });
  await t.app.ready();
});
afterAll(() => t.close());

describe("rate limiting", () => {
  it("answers 429 with Retry-After and the error shape once the budget is spent", async () => {
    const statuses: number[] = [];
    let last = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
    statuses.push(last.statusCode);
    for (let i = 0; i < 3; i++) {
      last = await t.app.inject({ method: "GET", url: "/api/csrf-token" });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
    expect(last.json().error.code).toBe("rate_limited");
    expect(last.json().error.message).toMatch(/Too many requests/);
  });

  it("never throttles the health check", async () => {
    for (let i = 0; i < 6; i++) {
      const response = await t.app.inject({ method: "GET", url: "/api/health" });
      expect(response.statusCode).toBe(200);
    }
  });

  it("counts per client address", async () => {
    const other = await t.app.inject({
      method: "GET",
      url: "/api/csrf-token",
      remoteAddress: "10.9.8.7",
    });
    expect(other.statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { logCollector } from "../support/logs";

/**
 * Advisory class: a payment component that fails open. With NODE_ENV=production and no Stripe
 * keys, the built-in test checkout sold 245,000 credits and the Enterprise tier for nothing
 * (decision 052, finding 9). In production, no payment provider means purchases are off: 503, a
 * startup warning like SMTP's, and no test checkout page — unless the operator sets
 * TEST_CHECKOUT=1 by name (decision 052).
 */

const OFF = {
  error: {
    code: "payments_unavailable",
    message: "Purchases are turned off: this server has no payment provider configured.",
  },
};

describe("production without Stripe", () => {
  const log = logCollector<{ level: number; msg: string }>();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { NODE_ENV: "production", LOG_LEVEL: "warn" },
      { logStream: log.stream },
    );
  });
  afterAll(() => t.close());

  it("warns at start-up that purchases are off", () => {
    expect(log.lines.map((l) => l.msg)).toContain(
      "STRIPE_SECRET_KEY is not set: purchases are off (set TEST_CHECKOUT=1 to sell through the built-in test checkout)",
    );
  });

  it("refuses every purchase and the portal with 503, and sells nothing", async () => {
    const { client } = await signUp(t.app);
    const before = (await client.get("/api/billing/summary")).json();
    expect(before.payments).toBe("off");

    const pack = await client.post("/api/billing/purchase-credits", { packageId: "pack_1000" });
    expect(pack.statusCode).toBe(503);
    expect(pack.json()).toEqual(OFF);
    const plan = await client.post("/api/billing/create-checkout-session", {
      tier: "enterprise",
      billingPeriod: "monthly",
    });
    expect(plan.statusCode).toBe(503);
    expect(plan.json()).toEqual(OFF);
    const portal = await client.post("/api/billing/portal");
    expect(portal.statusCode).toBe(503);
    expect(portal.json()).toEqual(OFF);

    // The test checkout's pages do not exist at all.
    expect((await client.get("/api/billing/dev-portal")).statusCode).toBe(404);
    expect((await client.get("/api/billing/dev-checkout/cs_test_dev_x")).statusCode).toBe(404);

    const after = (await client.get("/api/billing/summary")).json();
    expect([after.balance, after.tier]).toEqual([before.balance, before.tier]);
    const { rows } = await t.db.query("SELECT 1 FROM billing_checkouts");
    expect(rows).toEqual([]);
  });
});

describe("production without Stripe, with TEST_CHECKOUT=1", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: "production", TEST_CHECKOUT: "1" });
  });
  afterAll(() => t.close());

  it("sells through the built-in test checkout the operator asked for", async () => {
    const { client } = await signUp(t.app);
    expect((await client.get("/api/billing/summary")).json().payments).toBe("dev");
    const pack = await client.post("/api/billing/purchase-credits", { packageId: "pack_1000" });
    expect(pack.statusCode).toBe(200);
    expect(pack.json().checkout_url).toMatch(/^\/api\/billing\/dev-checkout\/cs_test_dev_/);
  });
});

describe("outside production", () => {
  it("keeps the test checkout by default, and TEST_CHECKOUT=0 turns it off", async () => {
    const dev = await createTestApp();
    const off = await createTestApp({ TEST_CHECKOUT: "0" });
    try {
      const a = await signUp(dev.app);
      expect((await a.client.get("/api/billing/summary")).json().payments).toBe("dev");
      const b = await signUp(off.app);
      const pack = await b.client.post("/api/billing/purchase-credits", { packageId: "pack_100" });
      expect(pack.statusCode).toBe(503);
      expect(pack.json()).toEqual(OFF);
    } finally {
      await dev.close();
      await off.close();
    }
  });
});

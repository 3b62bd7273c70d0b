import type { TBillingSummary } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import {
  deliver,
  invoiceObject,
  nowSeconds,
  subscriptionObject,
  TEST_WEBHOOK_SECRET,
  testId,
} from "./support/stripe-events";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: "0", STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET });
  await t.app.ready();
});
afterAll(() => t.close());

const summary = async (client: TestClient) =>
  (await client.get("/api/billing/summary")).json() as TBillingSummary;

async function ledgerReasons(client: TestClient) {
  const page = (await client.get("/api/billing/ledger?pageSize=100")).json();
  return page.entries.map((e: { reason: string; delta: number }) => [e.reason, e.delta]);
}

async function eventCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM billing_events");
  return rows[0]?.n ?? 0;
}

async function buyPack(client: TestClient, packageId = "pack_100") {
  const response = await client.post("/api/billing/purchase-credits", { packageId });
  expect(response.statusCode).toBe(200);
  return response.json() as { sessionId: string; checkout_url: string };
}

async function startSubscription(client: TestClient, tier = "pro", billingPeriod?: string) {
  const response = await client.post("/api/billing/create-checkout-session", {
    tier,
    ...(billingPeriod ? { billingPeriod } : {}),
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { sessionId: string; checkout_url: string };
}

function sessionCompleted(input: {
  sessionId: string;
  userId: string;
  mode: "payment" | "subscription";
  subscription?: string;
  paymentStatus?: string;
}) {
  return {
    id: input.sessionId,
    object: "checkout.session",
    mode: input.mode,
    status: "complete",
    payment_status: input.paymentStatus ?? "paid",
    client_reference_id: input.userId,
    customer: "cus_test_1",
    subscription: input.subscription ?? null,
    metadata: { user_id: input.userId },
  };
}

const subMeta = (userId: string, tier = "pro", period = "monthly") => ({
  user_id: userId,
  kind: "subscription",
  tier,
  billing_period: period,
});

describe("checkout calls", () => {
  it("answers sessionId and checkout_url, and 400 for an unknown tier or package", async () => {
    const { client } = await signUp(t.app);
    const started = await startSubscription(client);
    expect(started.sessionId).toMatch(/^cs_test_dev_[\w-]{32}$/);
    expect(started.checkout_url).toBe(`/api/billing/dev-checkout/${started.sessionId}`);
    for (const body of [
      { tier: "platinum" },
      { tier: "free" },
      { tier: "pro", billingPeriod: "weekly" },
    ]) {
      const response = await client.post("/api/billing/create-checkout-session", body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("validation_failed");
    }
    const pack = await client.post("/api/billing/purchase-credits", { packageId: "pack_7" });
    expect(pack.statusCode).toBe(400);
    expect((await buyPack(client)).checkout_url).toMatch(/^\/api\/billing\/dev-checkout\//);
  });

  it("needs a signed-in user who accepted the agreement", async () => {
    const { client } = await signUp(t.app, { acceptAgreement: false });
    const response = await client.post("/api/billing/purchase-credits", { packageId: "pack_100" });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("agreement_required");
    const anonymous = await t.app.inject({ method: "GET", url: "/api/billing/summary" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("webhook: credit packs", () => {
  it("grants a paid pack once, however often and however the event arrives", async () => {
    const { client, user } = await signUp(t.app);
    const { sessionId } = await buyPack(client, "pack_500");
    const event = {
      id: testId("evt"),
      type: "checkout.session.completed",
      object: sessionCompleted({ sessionId, userId: user.id, mode: "payment" }),
    };
    const first = await deliver(t.app, event);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    const repeat = await deliver(t.app, event);
    expect(repeat.json()).toEqual({ received: true, duplicate: true });
    // Another event about the same session (async success) grants nothing more.
    await deliver(t.app, {
      ...event,
      id: testId("evt"),
      type: "checkout.session.async_payment_succeeded",
    });
    expect((await summary(client)).balance).toBe(500);
    expect(await ledgerReasons(client)).toEqual([["credit_purchase", 500]]);
  });

  it("waits for a delayed payment and grants nothing when it fails", async () => {
    const { client, user } = await signUp(t.app);
    const failed = await buyPack(client);
    const pending = sessionCompleted({
      sessionId: failed.sessionId,
      userId: user.id,
      mode: "payment",
      paymentStatus: "unpaid",
    });
    await deliver(t.app, { type: "checkout.session.completed", object: pending });
    await deliver(t.app, { type: "checkout.session.async_payment_failed", object: pending });
    expect((await summary(client)).balance).toBe(0);

    const later = await buyPack(client);
    const paid = sessionCompleted({ sessionId: later.sessionId, userId: user.id, mode: "payment" });
    await deliver(t.app, {
      type: "checkout.session.completed",
      object: { ...paid, payment_status: "unpaid" },
    });
    expect((await summary(client)).balance).toBe(0);
    await deliver(t.app, { type: "checkout.session.async_payment_succeeded", object: paid });
    expect((await summary(client)).balance).toBe(100);
  });
});

describe("webhook: subscriptions", () => {
  it("purchase, renewal and a yearly plan grant each period's credits once", async () => {
    const { client, user } = await signUp(t.app);
    const { sessionId } = await startSubscription(client, "pro");
    const subscription = testId("sub");
    await deliver(t.app, {
      type: "checkout.session.completed",
      object: sessionCompleted({ sessionId, userId: user.id, mode: "subscription", subscription }),
    });
    const start = nowSeconds();
    const first = invoiceObject({ subscription, metadata: subMeta(user.id), periodStart: start });
    const firstEvent = { id: testId("evt"), type: "invoice.paid", object: first };
    await deliver(t.app, firstEvent);
    await deliver(t.app, firstEvent);
    let state = await summary(client);
    expect(state).toMatchObject({
      tier: "pro",
      tier_label: "Pro",
      cochat_access: true,
      balance: 1000,
      subscription: { tier: "pro", billing_period: "monthly", status: "active" },
    });
    expect(state.renews_at).toBe(new Date((start + 30 * 86_400) * 1000).toISOString());
    expect((await client.get("/api/users/profile")).json().user.cochat_access).toBe(true);

    // Renewal: the second period's invoice.
    await deliver(t.app, {
      type: "invoice.paid",
      object: invoiceObject({
        subscription,
        metadata: subMeta(user.id),
        billingReason: "subscription_cycle",
        periodStart: start + 30 * 86_400,
        periodEnd: start + 60 * 86_400,
      }),
    });
    // A proration invoice of a mid-period change grants nothing.
    await deliver(t.app, {
      type: "invoice.paid",
      object: invoiceObject({
        subscription,
        metadata: subMeta(user.id),
        billingReason: "subscription_update",
      }),
    });
    state = await summary(client);
    expect(state.balance).toBe(2000);
    expect(await ledgerReasons(client)).toEqual([
      ["subscription_grant", 1000],
      ["subscription_grant", 1000],
    ]);

    const yearly = await signUp(t.app);
    const started = await startSubscription(yearly.client, "starter", "yearly");
    const yearlySub = testId("sub");
    await deliver(t.app, {
      type: "invoice.paid",
      object: invoiceObject({
        subscription: yearlySub,
        metadata: subMeta(yearly.user.id, "starter", "yearly"),
        periodEnd: nowSeconds() + 365 * 86_400,
      }),
    });
    await deliver(t.app, {
      type: "checkout.session.completed",
      object: sessionCompleted({
        sessionId: started.sessionId,
        userId: yearly.user.id,
        mode: "subscription",
        subscription: yearlySub,
      }),
    });
    expect(await summary(yearly.client)).toMatchObject({
      tier: "starter",
      balance: 2400,
      subscription: { billing_period: "yearly" },
    });
  });

  it("is correct when events arrive out of order", async () => {
    const { client, user } = await signUp(t.app);
    const { sessionId } = await startSubscription(client, "pro");
    const subscription = testId("sub");
    const t0 = nowSeconds() - 100;
    // invoice.paid before checkout.session.completed.
    await deliver(t.app, {
      type: "invoice.paid",
      created: t0 + 2,
      object: invoiceObject({ subscription, metadata: subMeta(user.id) }),
    });
    expect(await summary(client)).toMatchObject({ tier: "pro", balance: 1000 });
    await deliver(t.app, {
      type: "checkout.session.completed",
      created: t0 + 1,
      object: sessionCompleted({ sessionId, userId: user.id, mode: "subscription", subscription }),
    });
    expect(await summary(client)).toMatchObject({ tier: "pro", balance: 1000 });

    // A newer update (cancel at period end), then an older one that would undo it.
    await deliver(t.app, {
      type: "customer.subscription.updated",
      created: t0 + 10,
      object: subscriptionObject({
        id: subscription,
        status: "active",
        metadata: subMeta(user.id),
        cancelAtPeriodEnd: true,
      }),
    });
    await deliver(t.app, {
      type: "customer.subscription.updated",
      created: t0 + 5,
      object: subscriptionObject({
        id: subscription,
        status: "active",
        metadata: subMeta(user.id),
      }),
    });
    const state = await summary(client);
    expect(state.subscription?.cancel_at_period_end).toBe(true);
    expect(state.renews_at).toBeNull();
    expect(state.tier).toBe("pro");
  });

  it("keeps the plan through a failed payment until Stripe ends it", async () => {
    const { client, user } = await signUp(t.app);
    const subscription = testId("sub");
    await startSubscription(client, "pro+");
    const meta = subMeta(user.id, "pro+");
    await deliver(t.app, {
      type: "invoice.paid",
      object: invoiceObject({ subscription, metadata: meta }),
    });
    const failed = await deliver(t.app, {
      type: "invoice.payment_failed",
      object: invoiceObject({ subscription, metadata: meta, billingReason: "subscription_cycle" }),
    });
    expect(failed.statusCode).toBe(200);
    expect(await summary(client)).toMatchObject({
      tier: "pro+",
      balance: 3000,
      subscription: { status: "past_due" },
    });
    await deliver(t.app, {
      type: "invoice.paid",
      object: invoiceObject({ subscription, metadata: meta, billingReason: "subscription_cycle" }),
    });
    expect(await summary(client)).toMatchObject({
      balance: 6000,
      subscription: { status: "active" },
    });
  });

  it("downgrades to free when the subscription ends, and a late event cannot revive it", async () => {
    const { client, user } = await signUp(t.app);
    const subscription = testId("sub");
    const meta = subMeta(user.id);
    const t0 = nowSeconds() - 50;
    await deliver(t.app, {
      type: "invoice.paid",
      created: t0,
      object: invoiceObject({ subscription, metadata: meta }),
    });
    await deliver(t.app, {
      type: "customer.subscription.updated",
      created: t0 + 1,
      object: subscriptionObject({
        id: subscription,
        status: "active",
        metadata: meta,
        cancelAtPeriodEnd: true,
      }),
    });
    // Cancelled at period end: the plan stays until the period is over.
    expect((await summary(client)).tier).toBe("pro");
    await deliver(t.app, {
      type: "customer.subscription.deleted",
      created: t0 + 2,
      object: subscriptionObject({ id: subscription, status: "canceled", metadata: meta }),
    });
    expect(await summary(client)).toMatchObject({
      tier: "free",
      cochat_access: false,
      balance: 1000,
      subscription: { status: "canceled" },
    });
    await deliver(t.app, {
      type: "customer.subscription.updated",
      created: t0 + 3,
      object: subscriptionObject({ id: subscription, status: "active", metadata: meta }),
    });
    expect((await client.get("/api/users/profile")).json().user).toMatchObject({
      subscription_tier: "free",
      cochat_access: false,
    });
  });

  it("follows a plan change made in the portal (price amount and interval)", async () => {
    const { client, user } = await signUp(t.app);
    const subscription = testId("sub");
    await deliver(t.app, {
      type: "invoice.paid",
      created: nowSeconds() - 10,
      object: invoiceObject({ subscription, metadata: subMeta(user.id, "pro") }),
    });
    await deliver(t.app, {
      type: "customer.subscription.updated",
      object: subscriptionObject({
        id: subscription,
        status: "active",
        metadata: subMeta(user.id, "pro"),
        price: { unit_amount: 19_999, interval: "month" },
      }),
    });
    expect((await summary(client)).tier).toBe("enterprise");
  });
});

describe("webhook: refused deliveries change nothing", () => {
  it("refuses a forged, unsigned, tampered or too-old event with 400", async () => {
    const { client, user } = await signUp(t.app);
    const { sessionId } = await buyPack(client, "pack_5000");
    const event = {
      type: "checkout.session.completed",
      object: sessionCompleted({ sessionId, userId: user.id, mode: "payment" }),
    };
    const before = await eventCount();
    const attempts = [
      await deliver(t.app, event, { secret: "whsec_not_the_right_secret" }),
      await deliver(t.app, event, { signature: null }),
      await deliver(t.app, event, { signature: "t=1,v1=deadbeef" }),
      await deliver(t.app, event, { timestamp: nowSeconds() - 301 }),
    ];
    // A genuine signature over a different body.
    const tampered = await t.app.inject({
      method: "POST",
      url: "/api/billing/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": (await import("stripe")).Stripe.webhooks.generateTestHeaderString({
          payload: "{}",
          secret: TEST_WEBHOOK_SECRET,
        }),
      },
      payload: JSON.stringify({ id: "evt_x", type: event.type, data: { object: event.object } }),
    });
    for (const response of [...attempts, tampered]) {
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_signature");
    }
    expect(await eventCount()).toBe(before);
    expect((await summary(client)).balance).toBe(0);
    // The genuine delivery still works afterwards.
    expect((await deliver(t.app, event)).statusCode).toBe(200);
    expect((await summary(client)).balance).toBe(5000);
  });
});

describe("the dev checkout, end to end over HTTP", () => {
  const ORIGIN = "http://localhost:3000";
  const form = (client: TestClient, url: string, origin: string | null = ORIGIN) =>
    client.request("POST", url, "", {
      csrf: false,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(origin ? { origin } : {}),
      },
    });

  it("buys a credit pack: page, Pay, balance and ledger", async () => {
    const { client } = await signUp(t.app);
    const { checkout_url } = await buyPack(client, "pack_100");
    const page = await client.get(checkout_url);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("Test payment page — no real card is charged");
    expect(page.body).toContain("Pay $4.99");
    expect(page.body).not.toContain("<script");
    expect(String(page.headers["content-security-policy"])).toContain("script-src 'self'");

    const checkoutId = checkout_url.split("/").at(-1) as string;
    const before = await client.get(`/api/billing/checkouts/${checkoutId}`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ status: "open", kind: "credits", credits: 100 });
    const paid = await form(client, `${checkout_url}/pay`);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`/billing?checkout=success&session_id=${checkoutId}`);
    expect((await summary(client)).balance).toBe(100);
    // The return toast reads what this payment added from here.
    expect((await client.get(`/api/billing/checkouts/${checkoutId}`)).json()).toEqual({
      id: checkoutId,
      kind: "credits",
      status: "completed",
      credits: 100,
      tier: null,
      plan_name: null,
      billing_period: null,
      pack_name: "100 credits",
      amount_usd: 4.99,
    });
    const { client: stranger } = await signUp(t.app);
    const theirs = await stranger.get(`/api/billing/checkouts/${checkoutId}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe("unknown_checkout");
    expect((await client.get("/api/billing/checkouts/nope")).statusCode).toBe(404);
    const ledger = (await client.get("/api/billing/ledger")).json();
    expect(ledger.entries[0]).toMatchObject({
      delta: 100,
      reason: "credit_purchase",
      description: "Credit pack: 100 credits",
    });
    // A second click changes nothing.
    expect((await form(client, `${checkout_url}/pay`)).statusCode).toBe(303);
    expect((await summary(client)).balance).toBe(100);
    expect((await client.get(checkout_url)).body).toContain("This checkout has been paid.");
  });

  it("upgrades to Pro, then cancels, renews and ends through the dev portal", async () => {
    const { client } = await signUp(t.app);
    const { checkout_url, sessionId } = await startSubscription(client, "pro");
    expect((await client.get(checkout_url)).body).toContain("Pay $19.99");
    await form(client, `${checkout_url}/pay`);
    expect((await client.get(`/api/billing/checkouts/${sessionId}`)).json()).toEqual({
      id: sessionId,
      kind: "subscription",
      status: "completed",
      credits: 1000,
      tier: "pro",
      plan_name: "Pro",
      billing_period: "monthly",
      pack_name: null,
      amount_usd: 19.99,
    });
    expect(await summary(client)).toMatchObject({
      tier: "pro",
      cochat_access: true,
      balance: 1000,
    });

    const portal = (await client.post("/api/billing/portal")).json();
    expect(portal.url).toBe("/api/billing/dev-portal");
    expect((await client.get(portal.url)).body).toContain("Cancel at period end");
    expect((await form(client, "/api/billing/dev-portal/cancel")).statusCode).toBe(303);
    expect(await summary(client)).toMatchObject({
      tier: "pro",
      renews_at: null,
      subscription: { cancel_at_period_end: true },
    });
    await form(client, "/api/billing/dev-portal/resume");
    await form(client, "/api/billing/dev-portal/renew");
    expect(await summary(client)).toMatchObject({
      balance: 2000,
      subscription: { cancel_at_period_end: false },
    });
    await form(client, "/api/billing/dev-portal/end");
    expect(await summary(client)).toMatchObject({
      tier: "free",
      cochat_access: false,
      balance: 2000,
    });
  });

  it("refuses cross-site posts, other users and closed checkouts", async () => {
    const { client } = await signUp(t.app);
    const { checkout_url } = await buyPack(client);
    for (const origin of ["https://evil.example", null]) {
      const refused = await form(client, `${checkout_url}/pay`, origin);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe("cross_origin");
    }
    const stranger = await signUp(t.app);
    expect((await stranger.client.get(checkout_url)).statusCode).toBe(404);
    expect((await form(stranger.client, `${checkout_url}/pay`)).statusCode).toBe(404);
    expect((await summary(client)).balance).toBe(0);

    const cancelled = await form(client, `${checkout_url}/cancel`);
    expect(cancelled.headers.location).toBe("/billing?checkout=cancel");
    expect((await form(client, `${checkout_url}/pay`)).statusCode).toBe(409);
    expect((await summary(client)).balance).toBe(0);
  });
});

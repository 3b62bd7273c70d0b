import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { deliver, TEST_WEBHOOK_SECRET } from "./support/stripe-events";

/**
 * A local stand-in for the Stripe API (form-encoded requests, JSON answers), so the real
 * Stripe SDK runs against it through STRIPE_API_BASE.
 */
interface Recorded {
  method: string;
  path: string;
  auth: string | undefined;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}

let stripe: Server;
let base: string;
const requests: Recorded[] = [];
let failNext = false;
let counter = 0;

let t: TestApp;
const PUBLIC_URL = "https://cohort.example";
const SECRET_KEY = "sk_test_cohort_standin_123";

beforeAll(async () => {
  stripe = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const form = new URLSearchParams(body);
      const path = (req.url ?? "").split("?")[0] ?? "";
      requests.push({
        method: req.method ?? "",
        path,
        auth: req.headers.authorization,
        idempotencyKey: req.headers["idempotency-key"] as string | undefined,
        form,
      });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, {
          "content-type": "application/json",
          "request-id": `req_${counter}`,
        });
        res.end(JSON.stringify(json));
      };
      if (failNext) {
        failNext = false;
        send(400, { error: { type: "invalid_request_error", message: "stand-in refused" } });
        return;
      }
      counter++;
      if (req.method === "POST" && path === "/v1/customers") {
        send(200, { id: `cus_standin_${counter}`, object: "customer", email: form.get("email") });
      } else if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = `cs_test_standin_${counter}`;
        send(200, {
          id,
          object: "checkout.session",
          mode: form.get("mode"),
          url: `https://checkout.stripe.test/c/pay/${id}`,
          expires_at: Math.floor(Date.now() / 1000) + 86_400,
          customer: form.get("customer"),
          client_reference_id: form.get("client_reference_id"),
        });
      } else if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
        send(200, {
          id: `bps_${counter}`,
          object: "billing_portal.session",
          url: `https://billing.stripe.test/p/session/${counter}`,
        });
      } else {
        send(404, { error: { type: "invalid_request_error", message: `no route ${path}` } });
      }
    });
  });
  await new Promise<void>((resolve) => stripe.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`;
  t = await createTestApp({
    PUBLIC_URL,
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_API_BASE: base,
  });
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => stripe.close(resolve));
});

describe("with STRIPE_SECRET_KEY", () => {
  it("starts new accounts at 0 credits (the data model)", async () => {
    const { user } = await signUp(t.app);
    expect(user.credits_remaining).toBe(0);
  });

  it("creates Stripe Checkout Sessions for the user's one customer", async () => {
    const { client, user } = await signUp(t.app);
    requests.length = 0;
    const sub = await client.post("/api/billing/create-checkout-session", {
      tier: "pro",
      billingPeriod: "yearly",
    });
    expect(sub.statusCode).toBe(200);
    const started = sub.json();
    expect(started.sessionId).toMatch(/^cs_test_standin_/);
    expect(started.checkout_url).toBe(`https://checkout.stripe.test/c/pay/${started.sessionId}`);

    const [customer, session] = requests;
    expect(customer?.path).toBe("/v1/customers");
    expect(customer?.auth).toBe(`Bearer ${SECRET_KEY}`);
    expect(customer?.idempotencyKey).toBe(`cohort-customer-${user.id}`);
    expect(customer?.form.get("email")).toBe(user.email);
    expect(customer?.form.get("metadata[user_id]")).toBe(user.id);
    expect(session?.path).toBe("/v1/checkout/sessions");
    const form = session?.form as URLSearchParams;
    expect(Object.fromEntries(form)).toMatchObject({
      mode: "subscription",
      customer: expect.stringMatching(/^cus_standin_/),
      client_reference_id: user.id,
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "19990",
      "line_items[0][price_data][recurring][interval]": "year",
      "metadata[user_id]": user.id,
      "metadata[tier]": "pro",
      "subscription_data[metadata][billing_period]": "yearly",
      success_url: `${PUBLIC_URL}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/billing?checkout=cancel`,
    });

    requests.length = 0;
    const pack = await client.post("/api/billing/purchase-credits", { packageId: "pack_1000" });
    expect(pack.statusCode).toBe(200);
    expect(requests.map((r) => r.path)).toEqual(["/v1/checkout/sessions"]);
    expect(Object.fromEntries(requests[0]?.form ?? [])).toMatchObject({
      mode: "payment",
      customer: form.get("customer"),
      "line_items[0][price_data][unit_amount]": "3499",
      "payment_intent_data[metadata][package_id]": "pack_1000",
    });

    // Stripe's completion of that session is fulfilled through the signed webhook.
    await deliver(t.app, {
      type: "checkout.session.completed",
      object: {
        id: pack.json().sessionId,
        object: "checkout.session",
        mode: "payment",
        payment_status: "paid",
        client_reference_id: user.id,
        customer: form.get("customer"),
      },
    });
    expect((await client.get("/api/users/profile")).json().user.credits_remaining).toBe(1000);

    const portal = await client.post("/api/billing/portal");
    expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const portalRequest = requests.at(-1);
    expect(portalRequest?.path).toBe("/v1/billing_portal/sessions");
    expect(portalRequest?.form.get("return_url")).toBe(`${PUBLIC_URL}/billing`);
    expect(portalRequest?.form.get("customer")).toBe(form.get("customer"));
  });

  it("answers 503 when Stripe refuses, and has no dev checkout", async () => {
    const { client } = await signUp(t.app);
    failNext = true;
    const response = await client.post("/api/billing/purchase-credits", { packageId: "pack_100" });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe("service_unavailable");
    expect((await client.get("/api/billing/dev-checkout/cs_test_dev_x")).statusCode).toBe(404);
    expect((await client.get("/api/billing/summary")).json().payments).toBe("stripe");
  });
});

import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  COCHAT_ERROR_CODES,
  ERROR_CODES,
  MODEL_ERROR_CODES,
  ZCochatConversationResponse,
  ZCochatConversationsResponse,
  ZCochatDoneEvent,
  ZCochatHealthResponse,
  ZCochatModelsResponse,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient, type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { fakeDns, parseSse } from "./support/sse";

/**
 * CoChat end to end over HTTP: the tier gate, the SSE stream (simulator and real SDKs against
 * the fake provider), stored conversations, the user's own keys, Stop, the time-out and
 * fair use.
 */

const ADMIN = { ADMIN_EMAIL: "admin@cochat.test", ADMIN_PASSWORD: "cochat-admin-passphrase" };

let sim: TestApp;
let real: TestApp;
let openai: FakeProviderServer;
let hostedCompat: FakeProviderServer;
let userCompat: FakeProviderServer;

beforeAll(async () => {
  openai = await FakeProviderServer.start();
  hostedCompat = await FakeProviderServer.start();
  userCompat = await FakeProviderServer.start();
  // Every model simulated (no keys), streaming fast.
  sim = await createTestApp({ ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0" });
  // No hosted OpenAI key, but the SDK points at the fake: users' own OpenAI keys go there.
  // A hosted OpenAI-compatible server with its own secret key, and a small fair-use limit.
  real = await createTestApp(
    {
      ...ADMIN,
      SIMULATOR_TOKENS_PER_SECOND: "0",
      OPENAI_BASE_URL: openai.baseUrls.openai,
      OPENAI_API: "chat",
      OPENAI_COMPATIBLE_BASE_URL: hostedCompat.baseUrls.openaiCompatible,
      OPENAI_COMPATIBLE_API_KEY: "hosted-compat-secret",
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
      USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
      COCHAT_MESSAGES_PER_HOUR: "4",
      COCHAT_TIMEOUT_SECONDS: "1",
      MODEL_MAX_ATTEMPTS: "1",
    },
    { resolveHost: fakeDns({ "my-llm.example.test": ["127.0.0.1"] }) },
  );
});

afterAll(async () => {
  await Promise.all([sim?.close(), real?.close()]);
  await Promise.all([openai, hostedCompat, userCompat].map((f) => f?.close()));
});

beforeEach(() => {
  for (const fake of [openai, hostedCompat, userCompat]) fake.reset();
});

/** A signed-up user with the tier set through the admin API, as support would grant it. */
async function userWithTier(t: TestApp, tier: "free" | "starter" | "pro" | "pro+" | "enterprise") {
  const signedUp = await signUp(t.app);
  if (tier !== "free") {
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const granted = await admin.put(`/api/admin/users/${signedUp.user.id}/tier`, { tier });
    expect(granted.statusCode).toBe(200);
  }
  return signedUp;
}

function chat(client: TestClient, body: object) {
  return client.post("/api/cochat/chat", body);
}

const hello = { messages: [{ role: "user", content: "Hello CoChat, who are you?" }] };
/** An OpenAI model from CoChat's list: what a user's OpenAI key serves (decision 029). */
const onKey = { ...hello, model: "gpt-4o" };

describe("who may chat", () => {
  it("locks free and starter users out with 403 cochat_locked, pointing to the upgrade", async () => {
    for (const tier of ["free", "starter"] as const) {
      const { client } = await userWithTier(sim, tier);
      // The lock is checked before the body: any request hears "locked".
      for (const body of [hello, {}]) {
        const response = await chat(client, body);
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toMatchObject({
          code: ERROR_CODES.cochatLocked,
          details: { tier, upgrade_url: "/pricing" },
        });
        expect(response.json().error.message).toContain("Upgrade to unlock CoChat");
      }
    }
  });

  it("needs a session and the current agreement", async () => {
    const anonymous = await sim.app.inject({
      method: "POST",
      url: "/api/cochat/chat",
      payload: hello,
    });
    expect(anonymous.statusCode).toBe(403); // CSRF comes first for a cookie-less browser call
    const bearerless = await sim.app.inject({
      method: "POST",
      url: "/api/cochat/chat",
      payload: hello,
      headers: { authorization: "Bearer nope" },
    });
    expect(bearerless.statusCode).toBe(401);
    const { client } = await signUp(sim.app, { acceptAgreement: false });
    const response = await chat(client, hello);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe(ERROR_CODES.agreementRequired);
  });

  it.each(["pro", "pro+", "enterprise"] as const)("lets %s users chat", async (tier) => {
    const { client } = await userWithTier(sim, tier);
    const response = await chat(client, hello);
    expect(response.statusCode).toBe(200);
  });
});

describe("a CoChat answer", () => {
  let pro: SignedUp;
  beforeAll(async () => {
    pro = await userWithTier(sim, "pro");
  });

  it("streams start, deltas and done as SSE, with the spec's defaults, and costs nothing", async () => {
    const before = (await pro.client.get("/api/users/profile")).json().user.credits_remaining;
    const startedAt = Date.now();
    const response = await chat(pro.client, hello);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(response.headers["x-request-id"]).toBeTruthy();
    const events = parseSse(response.body);
    expect(events[0]).toMatchObject({
      event: "start",
      data: { model: "cochat", model_name: "CoChat", simulated: true, provider: "simulator" },
    });
    const sessionId: string = events[0]?.data.session_id;
    expect(sessionId).toMatch(/^cochat-\d+$/);
    expect(Number(sessionId.slice(7))).toBeGreaterThanOrEqual(startedAt);
    const deltas = events.filter((e) => e.event === "delta");
    expect(deltas.length).toBeGreaterThan(3);
    const done = events.at(-1);
    expect(done?.event).toBe("done");
    const doneData = ZCochatDoneEvent.parse(done?.data);
    expect(doneData).toMatchObject({
      session_id: sessionId,
      model: "cochat",
      simulated: true,
      key_source: "simulator",
      finish_reason: "stop",
    });
    expect(doneData.usage.output_tokens).toBeGreaterThan(0);

    const answer = deltas.map((d) => d.data.text).join("");
    const stored = ZCochatConversationResponse.parse(
      (await pro.client.get(`/api/cochat/conversations/${sessionId}`)).json(),
    );
    expect(stored.conversation).toMatchObject({
      id: sessionId,
      title: "Hello CoChat, who are you?",
      model: "cochat",
      message_count: 2,
    });
    expect(stored.messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ["user", "Hello CoChat, who are you?", "complete"],
      ["assistant", answer, "complete"],
    ]);
    expect(stored.messages[1]).toMatchObject({ id: doneData.message_id, simulated: true });

    // CoChat Unlimited: no credits; the usage is recorded all the same.
    expect((await pro.client.get("/api/users/profile")).json().user.credits_remaining).toBe(before);
    const usage = await sim.db.query<{ credits: number; output_tokens: number }>(
      "SELECT credits, output_tokens FROM usage_events WHERE reference = $1",
      [`cochat:${doneData.message_id}`],
    );
    expect(usage.rows).toEqual([{ credits: 0, output_tokens: doneData.usage.output_tokens }]);
  });

  it("continues a conversation by its session_id, listing it most recent first", async () => {
    const first = await chat(pro.client, {
      session_id: "cochat-continue-1",
      messages: [{ role: "user", content: "Plan a picnic for four" }],
    });
    const answer = parseSse(first.body)
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    await chat(pro.client, {
      session_id: "cochat-continue-1",
      model: "coquick",
      temperature: 0.2,
      max_tokens: 300,
      messages: [
        { role: "user", content: "Plan a picnic for four" },
        { role: "assistant", content: answer },
        { role: "user", content: "Make it vegetarian" },
      ],
    });
    const { conversations } = ZCochatConversationsResponse.parse(
      (await pro.client.get("/api/cochat/conversations")).json(),
    );
    expect(conversations[0]).toMatchObject({
      id: "cochat-continue-1",
      title: "Plan a picnic for four",
      model: "coquick",
      message_count: 4,
    });
    const { messages } = (
      await pro.client.get("/api/cochat/conversations/cochat-continue-1")
    ).json();
    expect(messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(messages[2].content).toBe("Make it vegetarian");
  });

  it("keeps conversations per user and deletes them", async () => {
    const other = await userWithTier(sim, "enterprise");
    await chat(pro.client, { ...hello, session_id: "cochat-shared-id" });
    await chat(other.client, { ...hello, session_id: "cochat-shared-id" });
    const mine = (await pro.client.get("/api/cochat/conversations/cochat-shared-id")).json();
    expect(mine.messages).toHaveLength(2);
    expect(
      (await other.client.delete("/api/cochat/conversations/cochat-shared-id")).statusCode,
    ).toBe(200);
    expect((await other.client.get("/api/cochat/conversations/cochat-shared-id")).statusCode).toBe(
      404,
    );
    expect((await pro.client.get("/api/cochat/conversations/cochat-shared-id")).statusCode).toBe(
      200,
    );
    expect(
      (await other.client.delete("/api/cochat/conversations/cochat-shared-id")).statusCode,
    ).toBe(404);
  });

  it("refuses models CoChat does not offer and bodies that break the rules", async () => {
    const unknown = await chat(pro.client, { ...hello, model: "gpt-9" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe(MODEL_ERROR_CODES.modelNotFound);
    const lastIsAssistant = await chat(pro.client, {
      messages: [{ role: "assistant", content: "Hi" }],
    });
    expect(lastIsAssistant.statusCode).toBe(400);
    const hot = await chat(pro.client, { ...hello, temperature: 3 });
    expect(hot.statusCode).toBe(400);
    const badId = await chat(pro.client, { ...hello, session_id: "../etc" });
    expect(badId.statusCode).toBe(400);
  });

  it("describes CoChat's models and providers on /api/cochat/health", async () => {
    const health = ZCochatHealthResponse.parse(
      (await sim.app.inject({ method: "GET", url: "/api/cochat/health" })).json(),
    );
    expect(health).toMatchObject({ status: "ok", default_model: "cochat", messages_per_hour: 60 });
    expect(health.models[0]).toEqual({
      id: "cochat",
      name: "CoChat",
      provider: "simulator",
      simulated: true,
    });
    expect(health.providers.map((p) => p.provider)).toEqual(
      expect.arrayContaining(["openai", "anthropic", "google", "simulator"]),
    );
  });
});

describe("CoChat on real SDKs against the fake provider", () => {
  it("uses the user's own key: the fake sees it, the spec's defaults, and no credits", async () => {
    const pro = await userWithTier(real, "pro");
    await pro.client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-user-own-key-1234",
    });
    // The key serves OpenAI's models; CoChat itself is Cohort's own and stays simulated here
    // (decision 029).
    const models = ZCochatModelsResponse.parse((await pro.client.get("/api/cochat/models")).json());
    expect(models.data.find((m) => m.id === "gpt-4o")).toMatchObject({
      simulated: false,
      badge: null,
      source: "user_key",
    });
    expect(models.data.find((m) => m.id === "cochat")).toMatchObject({
      simulated: true,
      source: "simulator",
    });
    const anonymousModels = ZCochatModelsResponse.parse(
      (await real.app.inject({ method: "GET", url: "/api/cochat/models" })).json(),
    );
    expect(anonymousModels.data.find((m) => m.id === "gpt-4o")?.simulated).toBe(true);

    openai.next({
      text: "Hi! I am CoChat on your key.",
      usage: { inputTokens: 30, outputTokens: 8 },
    });
    const response = await chat(pro.client, onKey);
    const events = parseSse(response.body);
    expect(events.map((e) => e.event)).toEqual(["start", ...Array(7).fill("delta"), "done"]);
    expect(events[0]?.data).toMatchObject({ provider: "openai", simulated: false });
    expect(events.at(-1)?.data).toMatchObject({
      provider: "openai",
      key_source: "user",
      simulated: false,
      usage: { input_tokens: 30, output_tokens: 8 },
    });
    const [request] = openai.requests;
    expect(request?.headers.authorization).toBe("Bearer sk-user-own-key-1234");
    expect(request?.body).toMatchObject({
      model: "gpt-4o",
      temperature: 0.7,
      max_tokens: 2048,
      stream: true,
    });
    expect(request?.body.messages).toEqual([
      { role: "user", content: "Hello CoChat, who are you?" },
    ]);
  });

  it("sends an error event when the provider rejects the user's key", async () => {
    const pro = await userWithTier(real, "pro+");
    await pro.client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-user-bad-key-000",
    });
    openai.next({ status: 401, errorMessage: "Incorrect API key provided: sk-user***" });
    const events = parseSse((await chat(pro.client, onKey)).body);
    expect(events.map((e) => e.event)).toEqual(["start", "error"]);
    expect(events[1]?.data).toEqual({
      code: MODEL_ERROR_CODES.providerKeyRejected,
      message:
        "Your OpenAI key in Settings was refused (OpenAI answered 401), so GPT-4o could not answer. Replace or remove the key in Settings.",
    });
    expect(openai.requests).toHaveLength(1);
    // CoChat's own model is not the key's: it still answers.
    const native = parseSse((await chat(pro.client, hello)).body);
    expect(native.at(-1)).toMatchObject({ event: "done", data: { key_source: "simulator" } });
    const sessionId = events[0]?.data.session_id;
    const { messages } = (await pro.client.get(`/api/cochat/conversations/${sessionId}`)).json();
    expect(messages[1]).toMatchObject({
      role: "assistant",
      status: "failed",
      error: { code: MODEL_ERROR_CODES.providerKeyRejected },
    });
  });

  it("never sends the server's own key to a user's base URL", async () => {
    const pro = await userWithTier(real, "pro");
    const userPort = new URL(userCompat.url).port;
    const put = await pro.client.put("/api/users/api-keys", {
      provider: "openai-compatible",
      apiKey: "user-compat-key",
      baseURL: `http://my-llm.example.test:${userPort}/v1`,
    });
    expect(put.statusCode).toBe(200);
    userCompat.next({ text: "From your own server." });
    const events = parseSse((await chat(pro.client, { ...hello, model: "local:llama3.1" })).body);
    expect(events.at(-1)).toMatchObject({ event: "done", data: { key_source: "user" } });
    expect(userCompat.requests).toHaveLength(1);
    expect(userCompat.requests[0]?.headers.authorization).toBe("Bearer user-compat-key");
    expect(userCompat.requests[0]?.headers.host).toBe(`my-llm.example.test:${userPort}`);
    expect(JSON.stringify(userCompat.requests[0]?.headers)).not.toContain("hosted-compat-secret");
    expect(hostedCompat.requests).toHaveLength(0);

    // Without the user's key the hosted server (and its key) serve the model.
    const other = await userWithTier(real, "pro");
    parseSse((await chat(other.client, { ...hello, model: "local:llama3.1" })).body);
    expect(hostedCompat.requests[0]?.headers.authorization).toBe("Bearer hosted-compat-secret");
    expect(userCompat.requests).toHaveLength(1);
  });

  it("ends with a time-out error after COCHAT_TIMEOUT_SECONDS", async () => {
    const pro = await userWithTier(real, "enterprise");
    await pro.client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-user-slow-key-1",
    });
    // The provider never answers, so only COCHAT_TIMEOUT_SECONDS can end the stream.
    openai.next({ hang: true });
    const events = parseSse((await chat(pro.client, onKey)).body);
    expect(events.map((e) => e.event)).toEqual(["start", "error"]);
    expect(events[1]?.data).toEqual({
      code: MODEL_ERROR_CODES.providerTimeout,
      message: "GPT-4o did not finish its answer within 1 s. Please try again.",
    });
    expect((await openai.requests[0]?.closed)?.early).toBe(true);
  });

  it("aborts the provider call when the client disconnects (Stop), keeping the partial answer", async () => {
    const pro = await userWithTier(real, "pro");
    await pro.client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-user-stop-key-1",
    });
    openai.next({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 150 });
    await real.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = real.app.server.address() as AddressInfo;
    // A plain HTTP client on its own connection: destroying it is exactly a closed tab or
    // the browser's fetch being aborted by Stop.
    const request = httpRequest({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/api/cochat/chat",
      agent: false,
      headers: { "content-type": "application/json", authorization: `Bearer ${pro.token}` },
    });
    request.end(JSON.stringify({ ...onKey, session_id: "cochat-stop-1" }));
    const response = await new Promise<IncomingMessage>((resolve) =>
      request.on("response", resolve),
    );
    expect(response.statusCode).toBe(200);
    let seen = "";
    for await (const chunk of response) {
      seen += String(chunk);
      if (seen.includes("event: delta")) break;
    }
    request.destroy();
    const closed = await openai.requests[0]?.closed;
    expect(closed?.early).toBe(true);
    let stored: { status: string; content: string } | undefined;
    for (let i = 0; i < 50 && !stored; i++) {
      // Until the question's write lands (it is off the time to first token) the
      // conversation does not exist yet: 404, then the question, then the stopped answer.
      const response = await pro.client.get("/api/cochat/conversations/cochat-stop-1");
      expect([200, 404]).toContain(response.statusCode);
      if (response.statusCode === 200) stored = response.json().messages[1];
      if (!stored) await sleep(50);
    }
    expect(stored?.status).toBe("stopped");
    expect(stored?.content.length).toBeGreaterThan(0);
    expect("one two three four five six seven eight nine ten").toContain(stored?.content.trim());
    expect(stored?.content.trim()).not.toBe("one two three four five six seven eight nine ten");
  });

  it("holds each user to the fair-use limit per hour: 429 with Retry-After", async () => {
    const pro = await userWithTier(real, "pro");
    for (let i = 0; i < 4; i++) {
      expect((await chat(pro.client, { ...hello, model: "coquick" })).statusCode).toBe(200);
    }
    const limited = await chat(pro.client, { ...hello, model: "coquick" });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe(COCHAT_ERROR_CODES.fairUseLimit);
    expect(limited.json().error.message).toContain("fair-use limit");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(3500);
    const someoneElse = await userWithTier(real, "pro");
    expect((await chat(someoneElse.client, { ...hello, model: "coquick" })).statusCode).toBe(200);
  });
});

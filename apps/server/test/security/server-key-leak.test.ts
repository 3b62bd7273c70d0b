import { ZTestApiKeyResponse } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import type { TestClient } from "../support/client";
import {
  FakeProviderServer,
  type RecordedRequest,
} from "../support/fake-provider/fake-provider-server";
import { createSession, runToEnd } from "../support/runs";
import { setCredits } from "../support/runs-credits";
import { fakeDns, parseSse } from "../support/sse";

/**
 * Advisory class: a user's base URL receiving the server's own provider key. Cohort holds
 * hosted keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, …, OPENAI_COMPATIBLE_API_KEY) and lets a
 * user point the OpenAI-compatible provider at a server of their own. If any path (a run,
 * CoChat, the key test, a fallback after a failure, a redirect) sent a hosted key to that
 * server, its owner would walk away with Cohort's keys. The user's server here is a local
 * fake that records every request; every hosted key is a distinct marker string, and none of
 * them may ever appear in anything the user's server (or a server it redirects to) received.
 */

const ADMIN = { ADMIN_EMAIL: "admin@key-leak.test", ADMIN_PASSWORD: "key-leak-admin-passphrase" };

const SERVER_KEYS = {
  OPENAI_API_KEY: "sk-SERVER-openai-secret-0001",
  ANTHROPIC_API_KEY: "sk-ant-SERVER-anthropic-secret-0002",
  GOOGLE_GENERATIVE_AI_API_KEY: "SERVER-google-secret-0003",
  OPENAI_COMPATIBLE_API_KEY: "SERVER-compat-secret-0004",
};
const USER_KEY = "user-own-compat-key-5555";

let t: TestApp;
let userServer: FakeProviderServer;
/** Where the user's server redirects to: another origin the user controls. */
let elsewhere: FakeProviderServer;
let hostedOpenai: FakeProviderServer;
let hostedCompat: FakeProviderServer;
let userBase: string;

beforeAll(async () => {
  userServer = await FakeProviderServer.start();
  elsewhere = await FakeProviderServer.start();
  hostedOpenai = await FakeProviderServer.start();
  hostedCompat = await FakeProviderServer.start();
  t = await createTestApp(
    {
      ...ADMIN,
      ...SERVER_KEYS,
      SIMULATOR_TOKENS_PER_SECOND: "0",
      SIGNUP_CREDITS: "0",
      OPENAI_BASE_URL: hostedOpenai.baseUrls.openai,
      OPENAI_API: "chat",
      // Hosted Anthropic and Google point at the same recorder: they must not be called here.
      ANTHROPIC_BASE_URL: hostedOpenai.baseUrls.anthropic,
      GOOGLE_BASE_URL: hostedOpenai.baseUrls.google,
      OPENAI_COMPATIBLE_BASE_URL: hostedCompat.baseUrls.openaiCompatible,
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
      USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
      MODEL_MAX_ATTEMPTS: "1",
      MODEL_RETRY_BASE_DELAY_MS: "1",
      MODEL_RETRY_MAX_DELAY_MS: "10",
    },
    {
      resolveHost: fakeDns({
        "users-llm.example.test": ["127.0.0.1"],
        "elsewhere.example.test": ["127.0.0.1"],
      }),
    },
  );
  userBase = `http://users-llm.example.test:${new URL(userServer.url).port}/v1`;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([userServer, elsewhere, hostedOpenai, hostedCompat].map((f) => f?.close()));
});

beforeEach(() => {
  for (const fake of [userServer, elsewhere, hostedOpenai, hostedCompat]) fake.reset();
});

/** Every hosted key found anywhere in a request (headers, path or body). */
function serverKeysIn(requests: readonly RecordedRequest[]): string[] {
  const seen = JSON.stringify(
    requests.map((r) => ({ headers: r.headers, path: r.path, body: r.body })),
  );
  return Object.values(SERVER_KEYS).filter((key) => seen.includes(key));
}

/** The user's server saw requests, each carrying the user's key and no other credential. */
function expectOnlyUserKey(requests: readonly RecordedRequest[]) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(request.headers.authorization).toBe(`Bearer ${USER_KEY}`);
    for (const header of ["x-api-key", "api-key", "x-goog-api-key", "cookie"]) {
      expect(request.headers[header], header).toBeUndefined();
    }
  }
  expect(serverKeysIn(requests)).toEqual([]);
}

async function userWithOwnServer(tier?: "pro") {
  const user = await signUp(t.app);
  if (tier) {
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    expect((await admin.put(`/api/admin/users/${user.user.id}/tier`, { tier })).statusCode).toBe(
      200,
    );
  }
  const saved = await user.client.put("/api/users/api-keys", {
    provider: "openai-compatible",
    apiKey: USER_KEY,
    baseURL: userBase,
  });
  expect(saved.statusCode).toBe(200);
  return user;
}

const ONE_CODER = {
  rationale: "One coder step is enough.",
  steps: [{ id: "s1", role: "coder", task: "Write it", dependsOn: [] }],
};

async function runOnLocalModel(client: TestClient) {
  const session = await createSession(client, {
    coordinator_model: "local:llama3.1",
    agent_preferences: { coder: { model: "local:llama3.1" } },
  });
  const started = await runToEnd(client, session.id, "Write a CSV parser");
  return started.events;
}

function chat(client: TestClient, model = "local:llama3.1") {
  return client
    .post("/api/cochat/chat", { model, messages: [{ role: "user", content: "Hello" }] })
    .then((response) => parseSse(response.body));
}

describe("a run on the user's own server", () => {
  it("sends every call there with the user's key, never a hosted one", async () => {
    const { client } = await userWithOwnServer();
    userServer.defaultReply = { text: "A draft from the user's server." };
    userServer.next({ json: ONE_CODER });
    const events = await runOnLocalModel(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(userServer.requests.length).toBeGreaterThanOrEqual(3);
    expectOnlyUserKey(userServer.requests);
    // The hosted OpenAI-compatible server, the model's hosted home, was never asked.
    expect(hostedCompat.requests).toHaveLength(0);
  });

  it("keeps hosted keys away from the user's server when its calls fail", async () => {
    const { client } = await userWithOwnServer();
    userServer.defaultReply = { status: 500 };
    const events = await runOnLocalModel(client);
    expect(events.at(-1)?.type).toBe("run.failed");
    expectOnlyUserKey(userServer.requests);
    expect(hostedCompat.requests).toHaveLength(0);

    userServer.reset();
    userServer.defaultReply = { status: 401 };
    expect((await runOnLocalModel(client)).at(-1)?.type).toBe("run.failed");
    expectOnlyUserKey(userServer.requests);
  });

  it("in a run that mixes the user's server and a hosted model, keeps each key at home", async () => {
    const { client, user } = await userWithOwnServer();
    await setCredits(t.app, user.id, 500);
    userServer.defaultReply = { text: "The user's server writes the answer." };
    userServer.next({ json: ONE_CODER });
    hostedOpenai.defaultReply = { text: "A hosted draft." };
    const session = await createSession(client, {
      coordinator_model: "local:llama3.1",
      agent_preferences: { coder: { model: "gpt-4.1" } },
    });
    const { events } = await runToEnd(client, session.id, "Write a CSV parser");
    expect(events.at(-1)?.type).toBe("run.completed");
    expectOnlyUserKey(userServer.requests);
    expect(hostedOpenai.requests.length).toBeGreaterThan(0);
    for (const request of hostedOpenai.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${SERVER_KEYS.OPENAI_API_KEY}`);
    }
  });
});

describe("CoChat on the user's own server", () => {
  it("calls it with the user's key only, also when it fails", async () => {
    const { client } = await userWithOwnServer("pro");
    userServer.next({ text: "From your own server." });
    expect((await chat(client)).at(-1)).toMatchObject({
      event: "done",
      data: { key_source: "user" },
    });
    userServer.next({ status: 500 }, { status: 429, headers: { "retry-after": "0" } });
    expect((await chat(client)).at(-1)?.event).toBe("error");
    expect((await chat(client)).at(-1)?.event).toBe("error");
    expectOnlyUserKey(userServer.requests);
    expect(hostedCompat.requests).toHaveLength(0);
  });
});

describe("testing a key against the user's own server", () => {
  it("sends the key being tested, never a hosted one", async () => {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/users/test-api-key", {
      provider: "openai-compatible",
      apiKey: USER_KEY,
      baseURL: userBase,
    });
    expect(ZTestApiKeyResponse.parse(response.json()).valid).toBe(true);
    expectOnlyUserKey(userServer.requests);
  });
});

describe("redirects from the user's own server", () => {
  const elsewhereBase = () => `http://elsewhere.example.test:${new URL(elsewhere.url).port}`;

  it("drop every credential on a cross-origin hop and never add a hosted key", async () => {
    const user = await userWithOwnServer("pro");
    // The key test: the user's server sends the model list request elsewhere.
    userServer.next({ status: 302, headers: { location: `${elsewhereBase()}/v1/models` } });
    await user.client.post("/api/users/test-api-key", {
      provider: "openai-compatible",
      apiKey: USER_KEY,
      baseURL: userBase,
    });
    // CoChat: the chat call is redirected elsewhere (307 keeps the method and body).
    userServer.next({
      status: 307,
      headers: { location: `${elsewhereBase()}/v1/chat/completions` },
    });
    elsewhere.next({ text: "Answered elsewhere." });
    await chat(user.client);
    // A run: the plan call is redirected elsewhere too.
    userServer.next({
      status: 308,
      headers: { location: `${elsewhereBase()}/v1/chat/completions` },
    });
    elsewhere.next({ json: ONE_CODER });
    elsewhere.defaultReply = { text: "Drafted elsewhere." };
    await runOnLocalModel(user.client);

    expect(elsewhere.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of elsewhere.requests) {
      for (const header of ["authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"]) {
        expect(request.headers[header], `${request.path} ${header}`).toBeUndefined();
      }
    }
    expect(serverKeysIn(elsewhere.requests)).toEqual([]);
    expect(serverKeysIn(userServer.requests)).toEqual([]);
  });

  it("keeps only the user's key on a same-origin hop", async () => {
    const user = await userWithOwnServer("pro");
    userServer.next({ status: 307, headers: { location: "/v2/chat/completions" } });
    userServer.next({ text: "After the hop." });
    expect((await chat(user.client)).at(-1)?.event).toBe("done");
    expect(userServer.requests.map((r) => r.path)).toEqual([
      "/v1/chat/completions",
      "/v2/chat/completions",
    ]);
    expectOnlyUserKey(userServer.requests);
  });
});

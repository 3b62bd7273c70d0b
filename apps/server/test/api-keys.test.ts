import { randomBytes } from "node:crypto";
import {
  API_KEY_ERROR_CODES,
  API_KEY_MESSAGES,
  type TModel,
  ZApiKeysResponse,
  ZTestApiKeyResponse,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiKeyDeps } from "../src/modules/users/api-key-deps";
import { loadUserKeys } from "../src/modules/users/load-user-keys";
import { testApiKey } from "../src/modules/users/test-api-key";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { fakeDns } from "./support/sse";

/**
 * Bring your own key: storage (encrypted, never shown back), the key test against the real
 * SDKs and a local fake provider, and the SSRF guard on users' own base URLs. No request in
 * this file leaves the loopback interface: made-up host names resolve through a table.
 */

const fakes = {} as Record<"openai" | "anthropic" | "google" | "compat", FakeProviderServer>;
let t: TestApp;
let compatPort: string;

const OPENAI_KEY = "sk-proj-user-0123456789abcdefWXYZ";
/** Google AI Studio keys are "AIza" and 35 more characters. */
const googleKey = (tag: string) => `AIza${tag}${"0".repeat(35 - tag.length)}`;

beforeAll(async () => {
  for (const name of ["openai", "anthropic", "google", "compat"] as const) {
    fakes[name] = await FakeProviderServer.start();
  }
  compatPort = new URL(fakes.compat.url).port;
  t = await createTestApp(
    {
      SIMULATOR_TOKENS_PER_SECOND: "0",
      OPENAI_BASE_URL: fakes.openai.baseUrls.openai,
      ANTHROPIC_BASE_URL: fakes.anthropic.baseUrls.anthropic,
      GOOGLE_BASE_URL: fakes.google.baseUrls.google,
      // The fake "user server" listens on 127.0.0.1 only; every other loopback address and
      // every private range stays refused.
      USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
    },
    {
      resolveHost: fakeDns({
        "llm.example.test": ["127.0.0.1"],
        "intranet.example.test": ["10.0.0.8"],
        "metadata.example.test": ["169.254.169.254"],
        "loopback.example.test": ["::ffff:127.0.0.2"],
      }),
    },
  );
});

afterAll(async () => {
  await t?.close();
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

beforeEach(() => {
  for (const fake of Object.values(fakes)) fake.reset();
});

describe("storing keys", () => {
  it("encrypts the key at rest and shows only its last four characters", async () => {
    const { client, user } = await signUp(t.app);
    const put = await client.put("/api/users/api-keys", { provider: "openai", apiKey: OPENAI_KEY });
    expect(put.statusCode).toBe(200);
    expect(put.json().key).toMatchObject({ provider: "openai", last4: "WXYZ" });
    expect(put.body).not.toContain(OPENAI_KEY);

    const list = await client.get("/api/users/api-keys");
    expect(list.statusCode).toBe(200);
    const { keys } = ZApiKeysResponse.parse(list.json());
    expect(keys).toEqual([expect.objectContaining({ provider: "openai", last4: "WXYZ" })]);
    expect(list.body).not.toContain(OPENAI_KEY.slice(0, -4));
    expect(list.headers["cache-control"]).toBe("no-store");

    // Nothing in the database holds the key or any long piece of it.
    const { rows } = await t.db.query<Record<string, unknown>>(
      "SELECT * FROM user_api_keys WHERE user_id = $1",
      [user.id],
    );
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    for (let i = 0; i + 8 <= OPENAI_KEY.length - 4; i++) {
      expect(stored).not.toContain(OPENAI_KEY.slice(i, i + 8));
    }
    expect(rows[0]).toMatchObject({ last4: "WXYZ", provider: "openai" });
    expect(Buffer.from(String(rows[0]?.iv), "base64")).toHaveLength(12);
    expect(Buffer.from(String(rows[0]?.auth_tag), "base64")).toHaveLength(16);
    expect(rows[0]?.key_id).toMatch(/^[0-9a-f]{16}$/);

    // …yet the server can use it.
    const keysForCalls = await loadUserKeys(apiKeyDeps(t.app), user.id);
    expect(keysForCalls).toEqual({ openai: { apiKey: OPENAI_KEY } });
  });

  it("replaces a provider's key, removes it, and keeps users' keys apart", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await a.client.put("/api/users/api-keys", {
      provider: "anthropic",
      apiKey: "sk-ant-first-key-1111",
    });
    const second = await a.client.put("/api/users/api-keys", {
      provider: "anthropic",
      apiKey: "  sk-ant-second-key-2222  ",
    });
    expect(second.json().key.last4).toBe("2222");
    expect((await a.client.get("/api/users/api-keys")).json().keys).toHaveLength(1);
    expect((await loadUserKeys(apiKeyDeps(t.app), a.user.id)).anthropic?.apiKey).toBe(
      "sk-ant-second-key-2222",
    );
    expect((await b.client.get("/api/users/api-keys")).json().keys).toEqual([]);
    expect((await b.client.delete("/api/users/api-keys/anthropic")).statusCode).toBe(404);

    const removed = await a.client.delete("/api/users/api-keys/anthropic");
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, message: API_KEY_MESSAGES.removed });
    expect((await a.client.get("/api/users/api-keys")).json().keys).toEqual([]);
    expect(await loadUserKeys(apiKeyDeps(t.app), a.user.id)).toEqual({});
  });

  it("needs a session and, from a browser, the CSRF token", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/users/api-keys" })).statusCode).toBe(
      401,
    );
    const { client } = await signUp(t.app);
    const noCsrf = await client.request(
      "PUT",
      "/api/users/api-keys",
      { provider: "openai", apiKey: OPENAI_KEY },
      { csrf: false },
    );
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error.message).toContain("CSRF");
  });

  it("takes a base URL only for an OpenAI-compatible server, and only a public one", async () => {
    const { client } = await signUp(t.app);
    const put = (body: object) => client.put("/api/users/api-keys", body);
    const openaiWithUrl = await put({
      provider: "openai",
      apiKey: OPENAI_KEY,
      baseURL: "https://proxy.example.com/v1",
    });
    expect(openaiWithUrl.statusCode).toBe(400);
    expect(openaiWithUrl.json().error.code).toBe("validation_failed");
    expect((await put({ provider: "openai-compatible", apiKey: "local-key" })).statusCode).toBe(
      400,
    );
    expect(
      (await put({ provider: "openai-compatible", apiKey: "k", baseURL: "ftp://llm.example.test" }))
        .statusCode,
    ).toBe(400);

    for (const [baseURL, words] of [
      ["http://10.1.2.3:11434/v1", "private network"],
      ["http://intranet.example.test/v1", "private network"],
      ["http://metadata.example.test/latest", "cloud metadata"],
      ["http://[::ffff:7f00:2]:8000/v1", "loopback"],
      ["http://loopback.example.test/v1", "loopback"],
      ["http://169.254.169.254/v1", "cloud metadata"],
    ] as const) {
      const refused = await put({ provider: "openai-compatible", apiKey: "local-key", baseURL });
      expect(refused.statusCode, baseURL).toBe(400);
      expect(refused.json().error.code).toBe(API_KEY_ERROR_CODES.baseUrlNotAllowed);
      expect(refused.json().error.message).toContain(words);
    }

    const ok = await put({
      provider: "openai-compatible",
      apiKey: "local-key",
      baseURL: `http://llm.example.test:${compatPort}/v1/`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().key).toMatchObject({
      provider: "openai-compatible",
      last4: "",
      baseURL: `http://llm.example.test:${compatPort}/v1`,
    });
  });

  it("binds each ciphertext to its row, and survives a key rotation", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await a.client.put("/api/users/api-keys", { provider: "google", apiKey: googleKey("userA") });
    await b.client.put("/api/users/api-keys", { provider: "google", apiKey: googleKey("userB") });
    // Moving A's sealed key into B's row does not hand B's calls A's key.
    await t.db.query(
      `UPDATE user_api_keys AS target SET ciphertext = source.ciphertext, iv = source.iv,
         auth_tag = source.auth_tag
       FROM user_api_keys AS source
       WHERE target.user_id = $2 AND source.user_id = $1 AND source.provider = 'google'
         AND target.provider = 'google'`,
      [a.user.id, b.user.id],
    );
    const warnings: object[] = [];
    const deps = { ...apiKeyDeps(t.app), log: { warn: (d: object) => warnings.push(d) } };
    expect(await loadUserKeys(deps, b.user.id)).toEqual({});
    expect(warnings).toHaveLength(1);

    // Rotation: a new ENCRYPTION_KEY with the old one kept as previous still opens the key,
    // and re-seals it with the new one on the way.
    const newKey = randomBytes(32);
    const rotated = {
      ...deps,
      keyRing: { current: newKey, previous: [t.app.config.encryptionKey] },
    };
    const before = await t.db.query<{ key_id: string }>(
      "SELECT key_id FROM user_api_keys WHERE user_id = $1",
      [a.user.id],
    );
    expect((await loadUserKeys(rotated, a.user.id)).google?.apiKey).toBe(googleKey("userA"));
    const after = await t.db.query<{ key_id: string }>(
      "SELECT key_id FROM user_api_keys WHERE user_id = $1",
      [a.user.id],
    );
    expect(after.rows[0]?.key_id).not.toBe(before.rows[0]?.key_id);
    const onlyNew = { ...deps, keyRing: { current: newKey, previous: [] } };
    expect((await loadUserKeys(onlyNew, a.user.id)).google?.apiKey).toBe(googleKey("userA"));
  });
});

describe("POST /api/users/test-api-key", () => {
  async function testKey(body: object) {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/users/test-api-key", body);
    expect(response.statusCode).toBe(200);
    return ZTestApiKeyResponse.parse(response.json());
  }

  it("makes one cheap real call with the key through each SDK", async () => {
    expect(await testKey({ provider: "openai", apiKey: OPENAI_KEY })).toEqual({
      valid: true,
      result: "valid",
      message: API_KEY_MESSAGES.valid,
      tested_at: expect.any(String),
    });
    const [openaiCall] = fakes.openai.requests;
    expect(openaiCall?.path).toBe("/v1/responses");
    expect(openaiCall?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(openaiCall?.model).toBe("gpt-4.1-mini");
    expect(openaiCall?.body.max_output_tokens).toBe(16);

    expect((await testKey({ provider: "anthropic", apiKey: "sk-ant-test-key" })).valid).toBe(true);
    expect(fakes.anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant-test-key");
    expect((await testKey({ provider: "google", apiKey: googleKey("test") })).valid).toBe(true);
    expect(fakes.google.requests[0]?.headers["x-goog-api-key"]).toBe(googleKey("test"));
    // Tested, not stored.
    expect((await t.db.query("SELECT 1 FROM user_api_keys WHERE last4 = 'tkey'")).rows).toEqual([]);
  });

  it("says the key was refused on a 401/403, without a 5xx or the provider's text", async () => {
    fakes.openai.next({ status: 401, errorMessage: "Incorrect API key provided: sk-bad***" });
    expect(await testKey({ provider: "openai", apiKey: "sk-bad-key-123456" })).toEqual({
      valid: false,
      result: "refused",
      message: "OpenAI refused this key (401). Check that it was copied whole and is still active.",
      tested_at: expect.any(String),
    });
    fakes.anthropic.next({ status: 403 });
    expect(await testKey({ provider: "anthropic", apiKey: "sk-ant-bad" })).toMatchObject({
      valid: false,
      result: "refused",
      message:
        "Anthropic refused this key (403). Check that it was copied whole and is still active.",
    });
    // One call each: a refused key is not tried again.
    expect(fakes.openai.requests).toHaveLength(1);
    expect(fakes.anthropic.requests).toHaveLength(1);
  });

  it("tells a rate limit and an unreachable provider apart from a refused key", async () => {
    fakes.openai.next({ status: 429, headers: { "retry-after": "1" } });
    expect(await testKey({ provider: "openai", apiKey: OPENAI_KEY })).toMatchObject({
      valid: false,
      result: "rate_limited",
      message:
        "OpenAI accepted the key but refused the call: rate limit or quota reached (429). Try again later.",
    });
    fakes.google.next({ status: 500 });
    expect(await testKey({ provider: "google", apiKey: googleKey("x") })).toMatchObject({
      valid: false,
      result: "unreachable",
      message: "Google had a server error (500). Try again later.",
    });
    // Nothing listens on port 9 of 127.0.0.1 (discard): the connection is refused at once.
    expect(
      await testKey({
        provider: "openai-compatible",
        apiKey: "k",
        baseURL: "http://llm.example.test:9/v1",
      }),
    ).toMatchObject({
      valid: false,
      result: "unreachable",
      message:
        "Could not reach OpenAI-compatible (local). Check the address and your network, then try again.",
    });
  });

  it("checks the key's format for each provider before any call: 400, nothing sent", async () => {
    const { client } = await signUp(t.app);
    for (const [body, words] of [
      [
        { provider: "openai", apiKey: "sk-ant-api03-abcdef" },
        "This looks like an Anthropic key: choose Anthropic as the provider.",
      ],
      [
        { provider: "openai", apiKey: googleKey("pasted") },
        "This looks like a Google key: choose Google as the provider.",
      ],
      [
        { provider: "openai", apiKey: "my-openai-key-123" },
        'This is not an OpenAI key. An OpenAI key starts with "sk-" (for example sk-proj-…).',
      ],
      [
        { provider: "anthropic", apiKey: OPENAI_KEY },
        "This looks like an OpenAI key: choose OpenAI as the provider.",
      ],
      [
        { provider: "google", apiKey: "AIza-too-short" },
        'This is not a Google key. A Google AI Studio key starts with "AIza" and is 39 characters long.',
      ],
    ] as const) {
      // The test takes the same body; it is limited to 20 a minute, so two of them say it.
      const methods: ["PUT" | "POST", string][] = [["PUT", "/api/users/api-keys"]];
      if (body.provider !== "openai") methods.push(["POST", "/api/users/test-api-key"]);
      for (const [method, url] of methods) {
        const response = await client.request(method, url, { ...body, test: true });
        expect(response.statusCode, `${method} ${body.apiKey}`).toBe(400);
        expect(response.json().error).toMatchObject({ code: "validation_failed" });
        expect(response.json().error.message).toContain(words);
      }
    }
    expect(Object.values(fakes).flatMap((f) => f.requests)).toEqual([]);
    expect((await client.get("/api/users/api-keys")).json().keys).toEqual([]);
  });
  it("gives up on a provider that does not answer in time", async () => {
    fakes.anthropic.next({ hang: true });
    const verdict = await testApiKey(
      { models: t.app.models, ssrf: t.app.ssrf, timeoutMs: 200 },
      { provider: "anthropic", apiKey: "sk-ant-slow" },
    );
    expect(verdict).toMatchObject({
      valid: false,
      result: "unreachable",
      message: "Anthropic did not answer within 200 ms. Try again later.",
    });
    const closed = await fakes.anthropic.requests[0]?.closed;
    expect(closed?.early).toBe(true);
  });

  it("lists an OpenAI-compatible server's models, connecting only to the checked address", async () => {
    const verdict = await testKey({
      provider: "openai-compatible",
      apiKey: "local-key",
      baseURL: `http://llm.example.test:${compatPort}/v1`,
    });
    expect(verdict).toMatchObject({
      valid: true,
      result: "valid",
      message: `${API_KEY_MESSAGES.valid} The server offers 2 models.`,
    });
    const [request] = fakes.compat.requests;
    expect(request).toMatchObject({ method: "GET", path: "/v1/models" });
    // The name only exists in the test's DNS table: the connection went to the address the
    // guard checked, with the name kept in the Host header.
    expect(request?.headers.host).toBe(`llm.example.test:${compatPort}`);
    expect(request?.headers.authorization).toBe("Bearer local-key");
  });

  it("refuses private, loopback and metadata addresses without calling them", async () => {
    for (const [baseURL, words] of [
      ["http://intranet.example.test/v1", "private network"],
      [`http://127.0.0.2:${compatPort}/v1`, "loopback"],
      [`http://loopback.example.test:${compatPort}/v1`, "loopback"],
      ["http://metadata.example.test/v1", "cloud metadata"],
      ["http://[fe80::1]/v1", "link-local"],
    ] as const) {
      const verdict = await testKey({ provider: "openai-compatible", apiKey: "k", baseURL });
      expect(verdict.valid, baseURL).toBe(false);
      expect(verdict.message).toContain(words);
    }
    expect(fakes.compat.requests).toHaveLength(0);
  });

  it("checks every redirect again, and drops the key when one leaves the origin", async () => {
    const base = `http://llm.example.test:${compatPort}`;
    fakes.compat.next({
      status: 302,
      headers: { location: `http://127.0.0.2:${compatPort}/v1/models` },
    });
    const refused = await testKey({
      provider: "openai-compatible",
      apiKey: "k",
      baseURL: `${base}/v1`,
    });
    expect(refused).toMatchObject({ valid: false });
    expect(refused.message).toContain("127.0.0.2 is a loopback address");
    expect(fakes.compat.requests).toHaveLength(1);

    fakes.compat.reset();
    fakes.compat.next({ status: 307, headers: { location: "/v2/models" } });
    expect(
      (await testKey({ provider: "openai-compatible", apiKey: "k", baseURL: `${base}/v1` })).valid,
    ).toBe(true);
    expect(fakes.compat.requests.map((r) => r.path)).toEqual(["/v1/models", "/v2/models"]);
    expect(fakes.compat.requests[1]?.headers.authorization).toBe("Bearer k");

    fakes.compat.reset();
    fakes.compat.next({ status: 302, headers: { location: `${fakes.compat.url}/v1/models` } });
    expect(
      (await testKey({ provider: "openai-compatible", apiKey: "secret-k", baseURL: `${base}/v1` }))
        .valid,
    ).toBe(true);
    expect(fakes.compat.requests[0]?.headers.authorization).toBe("Bearer secret-k");
    expect(fakes.compat.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe("a key's last test, kept with it", () => {
  it("saving with `test` stores the verdict; a failed test asks first (422), nothing stored", async () => {
    const { client } = await signUp(t.app);
    fakes.openai.next({ status: 401, errorMessage: "Incorrect API key provided: sk-wro***" });
    const refused = await client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-wrong-key-000000",
      test: true,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toEqual({
      code: API_KEY_ERROR_CODES.testFailed,
      message:
        "The key was not saved: its test failed. OpenAI refused this key (401). Check that it was copied whole and is still active.",
      details: {
        result: "refused",
        message:
          "OpenAI refused this key (401). Check that it was copied whole and is still active.",
      },
    });
    expect(refused.body).not.toContain("sk-wro");
    expect((await client.get("/api/users/api-keys")).json().keys).toEqual([]);

    // Confirmed: stored, with the failed verdict shown beside it.
    fakes.openai.next({ status: 401 });
    const confirmed = await client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: "sk-wrong-key-000000",
      test: true,
      saveIfTestFails: true,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().key.last_test).toEqual({
      result: "refused",
      message: "OpenAI refused this key (401). Check that it was copied whole and is still active.",
      tested_at: expect.any(String),
    });
    expect(fakes.openai.requests).toHaveLength(2);

    // A key that passes is stored with its verdict and time.
    const before = Date.now();
    const valid = await client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: OPENAI_KEY,
      test: true,
    });
    expect(valid.statusCode).toBe(200);
    const { keys } = ZApiKeysResponse.parse((await client.get("/api/users/api-keys")).json());
    expect(keys[0]?.last_test).toMatchObject({ result: "valid", message: API_KEY_MESSAGES.valid });
    expect(Date.parse(keys[0]?.last_test?.tested_at ?? "")).toBeGreaterThanOrEqual(before - 1000);

    // Saved without a test (API clients), a key has no verdict yet: the old key's is dropped.
    const untested = await client.put("/api/users/api-keys", {
      provider: "openai",
      apiKey: `${OPENAI_KEY}2`,
    });
    expect(untested.json().key.last_test).toBeNull();
    expect(fakes.openai.requests).toHaveLength(3);
  });

  it("tests a saved key again and keeps the new verdict and time", async () => {
    const { client } = await signUp(t.app);
    expect((await client.post("/api/users/api-keys/anthropic/test")).statusCode).toBe(404);
    await client.put("/api/users/api-keys", { provider: "anthropic", apiKey: "sk-ant-saved-key" });

    fakes.anthropic.next({ status: 429 });
    const limited = await client.post("/api/users/api-keys/anthropic/test");
    expect(limited.statusCode).toBe(200);
    expect(limited.json().key).toMatchObject({
      provider: "anthropic",
      last_test: { result: "rate_limited" },
    });
    expect(fakes.anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant-saved-key");

    const again = await client.post("/api/users/api-keys/anthropic/test");
    expect(again.json().key.last_test).toMatchObject({
      result: "valid",
      message: API_KEY_MESSAGES.valid,
    });
    const listed = (await client.get("/api/users/api-keys")).json().keys[0];
    expect(listed.last_test).toEqual(again.json().key.last_test);
    expect(Date.parse(listed.last_test.tested_at)).toBeGreaterThanOrEqual(
      Date.parse(limited.json().key.last_test.tested_at),
    );
  });
});

describe("which models a key serves (decision 029)", () => {
  it("lists, per model, what will answer: the user's key for its provider's models only", async () => {
    const { client } = await signUp(t.app);
    const sources = async (url: string, field: "models" | "data" = "models") => {
      const response = await client.get(url);
      expect(response.statusCode).toBe(200);
      const models = response.json()[field] as TModel[];
      return Object.fromEntries(models.map((m) => [m.id, [m.source, m.simulated]]));
    };
    // No hosted keys on this server: everything is simulated.
    expect((await sources("/api/ai/models"))["gpt-4.1"]).toEqual(["simulator", true]);

    await client.put("/api/users/api-keys", { provider: "openai", apiKey: OPENAI_KEY });
    for (const [url, field] of [
      ["/api/ai/models", "models"],
      ["/api/models/available", "models"],
      ["/api/cochat/models", "data"],
    ] as const) {
      const listed = await sources(url, field);
      expect(listed["gpt-4.1"], url).toEqual(["user_key", false]);
      expect(listed["gpt-4o"], url).toEqual(["user_key", false]);
      // Cohort's own models are not the key's: still the simulator here, still labelled so.
      expect(listed.coreason, url).toEqual(["simulator", true]);
      expect(listed.cochat ?? listed.coquick, url).toEqual(["simulator", true]);
      expect(listed["claude-sonnet-4"], url).toEqual(["simulator", true]);
    }
    const one = (await client.get("/api/models/gpt-4.1")).json().model as TModel;
    expect(one).toMatchObject({ source: "user_key", simulated: false, badge: null });
    expect((await client.get("/api/ai/models")).headers["cache-control"]).toBe("private, no-store");

    // Anonymous callers see the server's own keys only.
    const anonymous = await t.app.inject({ method: "GET", url: "/api/ai/models" });
    const gpt = (anonymous.json().models as TModel[]).find((m) => m.id === "gpt-4.1");
    expect(gpt).toMatchObject({ source: "simulator", simulated: true, badge: "Simulated" });

    await client.delete("/api/users/api-keys/openai");
    expect((await sources("/api/ai/models"))["gpt-4.1"]).toEqual(["simulator", true]);
  });
});

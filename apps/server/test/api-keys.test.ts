import { randomBytes } from "node:crypto";
import {
  API_KEY_ERROR_CODES,
  API_KEY_MESSAGES,
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
    await a.client.put("/api/users/api-keys", {
      provider: "google",
      apiKey: "AIza-user-a-key-0000",
    });
    await b.client.put("/api/users/api-keys", {
      provider: "google",
      apiKey: "AIza-user-b-key-1111",
    });
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
    expect((await loadUserKeys(rotated, a.user.id)).google?.apiKey).toBe("AIza-user-a-key-0000");
    const after = await t.db.query<{ key_id: string }>(
      "SELECT key_id FROM user_api_keys WHERE user_id = $1",
      [a.user.id],
    );
    expect(after.rows[0]?.key_id).not.toBe(before.rows[0]?.key_id);
    const onlyNew = { ...deps, keyRing: { current: newKey, previous: [] } };
    expect((await loadUserKeys(onlyNew, a.user.id)).google?.apiKey).toBe("AIza-user-a-key-0000");
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
      message: API_KEY_MESSAGES.valid,
    });
    const [openaiCall] = fakes.openai.requests;
    expect(openaiCall?.path).toBe("/v1/responses");
    expect(openaiCall?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(openaiCall?.model).toBe("gpt-4.1-mini");
    expect(openaiCall?.body.max_output_tokens).toBe(16);

    expect((await testKey({ provider: "anthropic", apiKey: "sk-ant-test-key" })).valid).toBe(true);
    expect(fakes.anthropic.requests[0]?.headers["x-api-key"]).toBe("sk-ant-test-key");
    expect((await testKey({ provider: "google", apiKey: "AIza-test-key" })).valid).toBe(true);
    expect(fakes.google.requests[0]?.headers["x-goog-api-key"]).toBe("AIza-test-key");
    // Tested, not stored.
    expect((await t.db.query("SELECT 1 FROM user_api_keys WHERE last4 = 'tkey'")).rows).toEqual([]);
  });

  it("says the provider rejected a bad key (401/403), without a 5xx or the provider's text", async () => {
    fakes.openai.next({ status: 401, errorMessage: "Incorrect API key provided: sk-bad***" });
    expect(await testKey({ provider: "openai", apiKey: "sk-bad-key-123456" })).toEqual({
      valid: false,
      message: API_KEY_MESSAGES.rejected,
    });
    fakes.anthropic.next({ status: 403 });
    expect(await testKey({ provider: "anthropic", apiKey: "sk-ant-bad" })).toEqual({
      valid: false,
      message: "The provider rejected this key.",
    });
    expect(fakes.openai.requests).toHaveLength(1);
  });

  it("reports rate limits, server errors and unreachable servers as invalid, in words", async () => {
    fakes.openai.next({ status: 429, headers: { "retry-after": "1" } });
    const limited = await testKey({ provider: "openai", apiKey: OPENAI_KEY });
    expect(limited.valid).toBe(false);
    expect(limited.message).toContain("429");
    fakes.google.next({ status: 500 });
    expect(await testKey({ provider: "google", apiKey: "AIza-x" })).toEqual({
      valid: false,
      message: "Google had a server error (500). Try again later.",
    });
    // Nothing listens on port 9 of 127.0.0.1 (discard): the connection is refused at once.
    const unreachable = await testKey({
      provider: "openai-compatible",
      apiKey: "k",
      baseURL: "http://llm.example.test:9/v1",
    });
    expect(unreachable).toEqual({
      valid: false,
      message:
        "Could not reach OpenAI-compatible (local). Check the address and your network, then try again.",
    });
  });

  it("gives up on a provider that does not answer in time", async () => {
    fakes.anthropic.next({ hang: true });
    const verdict = await testApiKey(
      { models: t.app.models, ssrf: t.app.ssrf, timeoutMs: 200 },
      { provider: "anthropic", apiKey: "sk-ant-slow" },
    );
    expect(verdict).toEqual({
      valid: false,
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
    expect(verdict).toEqual({
      valid: true,
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

import { API_KEY_ERROR_CODES, ZTestApiKeyResponse } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { TestClient } from "../support/client";
import { FakeProviderServer } from "../support/fake-provider/fake-provider-server";
import { createSession, runToEnd } from "../support/runs";
import { fakeDns, parseSse } from "../support/sse";
import * as forms from "../support/ssrf-forms";

/**
 * Advisory class: server-side request forgery. A user gives Cohort the base URL of "their"
 * OpenAI-compatible server; an attacker gives one that points back into Cohort's own network
 * (loopback, private ranges, the cloud metadata service) in whatever spelling slips past a
 * check, or a name whose DNS answer or redirect points there. This file drives every such
 * form through the public API (saving a key, testing a key, CoChat on a saved key) and
 * asserts the refusal's reason, so a guard that stops recognising one form fails here.
 *
 * Two local servers stand in for the network: `outside` on 127.0.0.1 (made "public" for the
 * test by USER_BASE_URL_ALLOWED_NETWORKS=127.0.0.1/32) and `inside` on 127.0.0.2, which no
 * setting allows; any request `inside` records is a forgery that got through.
 */

const ADMIN = { ADMIN_EMAIL: "admin@ssrf.test", ADMIN_PASSWORD: "ssrf-admin-passphrase" };

let strict: TestApp;
let lan: TestApp;
let wide: TestApp;
let outside: FakeProviderServer;
let inside: FakeProviderServer;
let hosted: FakeProviderServer;
let outsidePort: string;
let insidePort: string;

/** DNS of the `lan` app; tests re-point names (a rebinding attacker controls their DNS). */
const lanDns: Record<string, string[]> = {};

beforeAll(async () => {
  outside = await FakeProviderServer.start();
  inside = await FakeProviderServer.start("127.0.0.2");
  hosted = await FakeProviderServer.start();
  outsidePort = new URL(outside.url).port;
  insidePort = new URL(inside.url).port;
  // Nothing but public addresses; names resolve through a table, never real DNS.
  strict = await createTestApp(
    {},
    {
      resolveHost: fakeDns(forms.PUBLIC_ONLY_DNS),
    },
  );
  // A self-hosted installation that lets users reach one LAN address (the `outside` fake).
  lan = await createTestApp(
    {
      ...ADMIN,
      SIMULATOR_TOKENS_PER_SECOND: "0",
      USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
      OPENAI_COMPATIBLE_BASE_URL: hosted.baseUrls.openaiCompatible,
      OPENAI_COMPATIBLE_API_KEY: "hosted-compat-secret",
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
      MODEL_MAX_ATTEMPTS: "1",
    },
    { resolveHost: (hostname) => fakeDns(lanDns)(hostname) },
  );
  // An operator who allows every network: cloud metadata must still be refused.
  wide = await createTestApp({ USER_BASE_URL_ALLOWED_NETWORKS: "0.0.0.0/0,::/0" });
});

afterAll(async () => {
  await Promise.all([strict?.close(), lan?.close(), wide?.close()]);
  await Promise.all([outside, inside, hosted].map((f) => f?.close()));
});

beforeEach(() => {
  for (const fake of [outside, inside, hosted]) fake.reset();
  forms.resetLanDns(lanDns, "llm.example.test");
});

// --- Helpers ------------------------------------------------------------------------------

let nextIp = 1;
/** A client from its own address: test-api-key allows 20 calls a minute per address. */
async function freshUser(t: TestApp) {
  const ip = `192.0.2.${nextIp++}`;
  return signUp(new TestClient(t.app, ip));
}

function saveCompatKey(client: TestClient, baseURL: string, apiKey = "user-compat-key") {
  return client.put("/api/users/api-keys", { provider: "openai-compatible", apiKey, baseURL });
}

async function expectRefused(client: TestClient, baseURL: string, reason: string) {
  const response = await saveCompatKey(client, baseURL);
  expect(response.statusCode, baseURL).toBe(400);
  expect(response.headers["content-type"]).toContain("application/json");
  const { error } = response.json();
  expect(error.code, baseURL).toBe(API_KEY_ERROR_CODES.baseUrlNotAllowed);
  expect(error.details?.reason, baseURL).toBe(reason);
}

async function testKey(client: TestClient, baseURL: string) {
  const response = await client.post("/api/users/test-api-key", {
    provider: "openai-compatible",
    apiKey: "user-compat-key",
    baseURL,
  });
  expect(response.statusCode, baseURL).toBe(200);
  return ZTestApiKeyResponse.parse(response.json());
}

async function storedKeys(client: TestClient) {
  return (await client.get("/api/users/api-keys")).json().keys as unknown[];
}

// --- Tests ----------------------------------------------------------------------------------

describe("saving a base URL that points inward", () => {
  it.each(Object.entries(forms.INWARD_HOSTS))(
    "refuses every form of a %s address",
    async (reason, hosts) => {
      const { client } = await freshUser(strict);
      for (const host of hosts) {
        await expectRefused(client, `http://${host}/v1`, reason);
        await expectRefused(client, `https://${host}:8443/v1`, reason);
      }
      expect(await storedKeys(client)).toEqual([]);
    },
  );

  it("refuses every form of every cloud metadata address, whatever the operator allows", async () => {
    for (const t of [strict, wide, lan]) {
      const { client } = await freshUser(t);
      for (const host of forms.ALL_METADATA_HOSTS) {
        await expectRefused(client, `http://${host}/latest/meta-data/`, "metadata");
      }
      expect(await storedKeys(client)).toEqual([]);
    }
  });

  it("allows what the operator allowed, and nothing next to it", async () => {
    const { client } = await freshUser(lan);
    expect((await saveCompatKey(client, `http://127.0.0.1:${outsidePort}/v1`)).statusCode).toBe(
      200,
    );
    // The same address spelt another way is the same address: allowed too.
    expect((await saveCompatKey(client, `http://2130706433:${outsidePort}/v1`)).statusCode).toBe(
      200,
    );
    for (const host of forms.LOOPBACK_BESIDE_ALLOWED) {
      await expectRefused(client, `http://${host}:${outsidePort}/v1`, "loopback");
    }
    await expectRefused(client, "http://10.0.0.1/v1", "private");
  });

  it("refuses a query string, a fragment and user information in the base URL", async () => {
    const { client } = await freshUser(wide);
    for (const baseURL of [
      "https://llm.example.com/v1?x=1",
      "https://llm.example.com/v1?",
      "https://llm.example.com/v1?api-version=1#a",
      "https://llm.example.com/v1#a",
      "https://llm.example.com/v1#",
    ]) {
      await expectRefused(client, baseURL, "query");
    }
    for (const baseURL of [
      "https://user:pass@llm.example.com/v1",
      "https://user@llm.example.com/v1",
      "https://:pass@llm.example.com/v1",
    ]) {
      await expectRefused(client, baseURL, "credentials");
    }
    expect(await storedKeys(client)).toEqual([]);
  });
});

describe("DNS answers that point inward", () => {
  it("refuses a name whose answer is private, loopback or metadata, in any form", async () => {
    const { client } = await freshUser(lan);
    await expectRefused(client, "http://inward.example.test/v1", "private");
    await expectRefused(client, `http://inside.example.test:${insidePort}/v1`, "loopback");
    await expectRefused(client, "http://mapped-loopback.example.test/v1", "loopback");
    await expectRefused(client, "http://meta.example.test/v1", "metadata");
    await expectRefused(client, "http://meta-nat64.example.test/v1", "metadata");
    await expectRefused(client, "http://nowhere.example.test/v1", "dns");
  });

  it("refuses a name with one allowed and one inward answer", async () => {
    const { client } = await freshUser(lan);
    await expectRefused(client, "http://mixed.example.test/v1", "private");
    await expectRefused(client, "http://mixed-meta.example.test/v1", "metadata");
    await expectRefused(client, `http://mixed-inside.example.test:${insidePort}/v1`, "loopback");
    const strictUser = await freshUser(strict);
    await expectRefused(strictUser.client, "http://split.example.test/v1", "loopback");
    await expectRefused(strictUser.client, "http://split6.example.test/v1", "loopback");
    await expectRefused(strictUser.client, "http://localhost/v1", "loopback");
    // The control: the public name alone passes (saving calls nothing).
    expect(
      (await saveCompatKey(strictUser.client, "http://public.example.test/v1")).statusCode,
    ).toBe(200);
  });
});

describe("testing a key against an inward address", () => {
  it("refuses each class of address without calling it, naming the class", async () => {
    const words: Record<string, string> = {
      loopback: "loopback",
      private: "private network",
      "link-local": "link-local",
      "carrier-grade-nat": "carrier-grade NAT",
      unspecified: "unspecified",
      multicast: "multicast",
      metadata: "cloud metadata",
    };
    const samples: [string, string][] = [
      [`http://127.0.0.2:${insidePort}/v1`, "loopback"],
      [`http://2130706434:${insidePort}/v1`, "loopback"],
      [`http://[::ffff:127.0.0.2]:${insidePort}/v1`, "loopback"],
      [`http://[64:ff9b::7f00:2]:${insidePort}/v1`, "loopback"],
      [`http://[2002:7f00:2::]:${insidePort}/v1`, "loopback"],
      [`http://inside.example.test:${insidePort}/v1`, "loopback"],
      [`http://mixed-inside.example.test:${insidePort}/v1`, "loopback"],
      ["http://0x0a000001/v1", "private"],
      ["http://[fe80::1]/v1", "link-local"],
      ["http://100.64.0.1/v1", "carrier-grade-nat"],
      ["http://0/v1", "unspecified"],
      ["http://[ff02::1]/v1", "multicast"],
      ["http://2852039166/latest", "metadata"],
      ["http://[::ffff:a9fe:a9fe]/latest", "metadata"],
      ["http://[fd00:ec2::254]/latest", "metadata"],
      ["http://meta-nat64.example.test/latest", "metadata"],
    ];
    for (let i = 0; i < samples.length; i += 8) {
      const { client } = await freshUser(lan);
      for (const [baseURL, reason] of samples.slice(i, i + 8)) {
        const verdict = await testKey(client, baseURL);
        expect(verdict.valid, baseURL).toBe(false);
        expect(verdict.message, baseURL).toContain(words[reason]);
      }
    }
    expect(inside.requests).toHaveLength(0);
  });
});

describe("testing a key with a base URL that carries more than an address", () => {
  it("refuses a query string, a fragment or user information without calling the server", async () => {
    const { client } = await freshUser(lan);
    const base = `http://llm.example.test:${outsidePort}/v1`;
    for (const [baseURL, words] of [
      [`${base}?x=1`, "?query or #fragment"],
      [`${base}?`, "?query or #fragment"],
      [`${base}#a`, "?query or #fragment"],
      [`http://user:pass@llm.example.test:${outsidePort}/v1`, "user name and password"],
    ] as const) {
      const verdict = await testKey(client, baseURL);
      expect(verdict.valid, baseURL).toBe(false);
      expect(verdict.message, baseURL).toContain(words);
    }
    expect(outside.requests).toHaveLength(0);
  });
});

describe("redirects from an allowed server", () => {
  const base = () => `http://llm.example.test:${outsidePort}/v1`;

  it("re-checks every hop and never follows one inward", async () => {
    const targets: [string, string][] = [
      [`http://127.0.0.2:${insidePort}/v1/models`, "loopback"],
      [`http://2130706434:${insidePort}/v1/models`, "loopback"],
      [`http://[::ffff:127.0.0.2]:${insidePort}/v1/models`, "loopback"],
      [`http://inside.example.test:${insidePort}/v1/models`, "loopback"],
      [`http://mixed-inside.example.test:${insidePort}/v1/models`, "loopback"],
      ["http://10.0.0.8/v1/models", "private network"],
      ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
      ["http://[fd00:ec2::254]/latest/meta-data/", "cloud metadata"],
      ["http://[64:ff9b::a83f:8110]/machine", "cloud metadata"],
    ];
    for (let i = 0; i < targets.length; i += 8) {
      const { client } = await freshUser(lan);
      for (const [location, words] of targets.slice(i, i + 8)) {
        outside.reset();
        outside.next({ status: 302, headers: { location } });
        const verdict = await testKey(client, base());
        expect(verdict.valid, location).toBe(false);
        expect(verdict.message, location).toContain(words);
        expect(outside.requests, location).toHaveLength(1);
      }
    }
    expect(inside.requests).toHaveLength(0);
  });

  it("checks the last hop of a chain as strictly as the first", async () => {
    const { client } = await freshUser(lan);
    outside.next(
      { status: 307, headers: { location: "/v2/models" } },
      { status: 308, headers: { location: `http://inside.example.test:${insidePort}/v1/models` } },
    );
    const verdict = await testKey(client, base());
    expect(verdict).toMatchObject({ valid: false });
    expect(verdict.message).toContain("loopback");
    expect(outside.requests.map((r) => r.path)).toEqual(["/v1/models", "/v2/models"]);
    expect(inside.requests).toHaveLength(0);
  });

  it("refuses a redirect inward from CoChat on a saved base URL", async () => {
    const user = await proUser();
    expect((await saveCompatKey(user.client, base())).statusCode).toBe(200);
    outside.next({
      status: 307,
      headers: { location: `http://127.0.0.2:${insidePort}/v1/chat/completions` },
    });
    const events = await cochat(user.client);
    expect(events.at(-1)?.event).toBe("error");
    expect(outside.requests).toHaveLength(1);
    expect(inside.requests).toHaveLength(0);
    expect(hosted.requests).toHaveLength(0);
  });
});

describe("a saved base URL whose name is re-pointed inward (DNS rebinding)", () => {
  it("checks the name again on every call and never connects inward", async () => {
    const user = await proUser();
    lanDns["rebind.example.test"] = ["127.0.0.1"];
    const baseURL = `http://rebind.example.test:${insidePort}/v1`;
    expect((await saveCompatKey(user.client, baseURL)).statusCode).toBe(200);

    lanDns["rebind.example.test"] = ["127.0.0.2"];
    const events = await cochat(user.client);
    expect(events.at(-1)?.event).toBe("error");
    // The hosted server (and its key) never stands in for the user's refused one.
    expect(hosted.requests).toHaveLength(0);

    lanDns["rebind.example.test"] = ["127.0.0.1", "127.0.0.2"];
    expect((await cochat(user.client)).at(-1)?.event).toBe("error");

    // A run on the saved key fails the same way: its planning call is refused.
    lanDns["rebind.example.test"] = ["127.0.0.2"];
    const session = await createSession(user.client, { coordinator_model: "local:llama3.1" });
    const { events: runEvents } = await runToEnd(user.client, session.id, "Plan something");
    expect(runEvents.at(-1)).toMatchObject({ type: "run.failed", code: "plan_failed" });

    expect(inside.requests).toHaveLength(0);
    expect(hosted.requests).toHaveLength(0);
  });
});

async function proUser() {
  const user = await freshUser(lan);
  const admin = await adminClient(lan.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  const granted = await admin.put(`/api/admin/users/${user.user.id}/tier`, { tier: "pro" });
  expect(granted.statusCode).toBe(200);
  return user;
}

async function cochat(client: TestClient) {
  const response = await client.post("/api/cochat/chat", {
    model: "local:llama3.1",
    messages: [{ role: "user", content: "Hello" }],
  });
  expect(response.statusCode).toBe(200);
  return parseSse(response.body);
}

/**
 * Advisory class: NUL characters (decision 018, finding 5). PostgreSQL text cannot hold U+0000: a
 * title, message, name or search with one used to reach the database and answer 500 — and a
 * model that emitted one failed a paid run. Input with NUL is refused with 400 naming the
 * field, on every route (path, query and body, generated from the OpenAPI document); model
 * output is cleaned before it is stored; any database "data exception" is a 400, never a 500.
 */
import { ZCochatConversationResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { FakeProviderServer } from "../support/fake-provider/fake-provider-server";
import { exampleFor, stringPaths, withStringAt } from "../support/json-schema-arbitrary";
import { bodySchemaOf, listOperations, type Operation } from "../support/openapi";
import { parseSse } from "../support/sse";

const ADMIN = { ADMIN_EMAIL: "admin@nul.test", ADMIN_PASSWORD: "nul-admin-passphrase" };
const NUL_TEXT = "before\u0000after";

let t: TestApp;
let fake: FakeProviderServer;
let token: string;
let operations: Operation[];

beforeAll(async () => {
  fake = await FakeProviderServer.start();
  t = await createTestApp({
    ...ADMIN,
    SIMULATOR_TOKENS_PER_SECOND: "0",
    OPENAI_COMPATIBLE_BASE_URL: fake.baseUrls.openaiCompatible,
    OPENAI_COMPATIBLE_API_KEY: "hosted-compat-secret",
    OPENAI_COMPATIBLE_MODELS: "llama3.1",
  });
  ({ token } = await signUp(t.app));
  operations = await listOperations(t.app);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

function call(method: string, url: string, body?: unknown) {
  return t.app.inject({
    method: method as "POST",
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

function expectRefused(response: Awaited<ReturnType<typeof call>>, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const { error } = response.json();
  expect(error.code).toBe("validation_failed");
  expect(error.message).toContain(`${field} must not contain NUL characters`);
  expect(error.details.issues[0].path).toBe(field);
}

describe("NUL in input, on every route", () => {
  it("is refused in every string field of every JSON body, naming the field", async () => {
    let fields = 0;
    for (const op of operations) {
      const schema = bodySchemaOf(op);
      if (!schema) continue;
      const base = exampleFor(schema);
      const url = op.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
      for (const path of stringPaths(base)) {
        fields += 1;
        expectRefused(
          await call(op.method, url, withStringAt(base, path, NUL_TEXT)),
          path.join("."),
        );
      }
    }
    // Titles, messages, names, keys, tokens…: the contracts have dozens of text fields.
    expect(fields).toBeGreaterThan(25);
  });

  it("is refused in every query parameter and path parameter", async () => {
    let checked = 0;
    for (const op of operations) {
      for (const param of op.parameters ?? []) {
        if (param.in !== "query" && param.in !== "path") continue;
        checked += 1;
        const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === param.name && param.in === "path"
            ? encodeURIComponent(NUL_TEXT)
            : "00000000-0000-4000-8000-000000000000",
        );
        const url =
          param.in === "query" ? `${filled}?${param.name}=${encodeURIComponent(NUL_TEXT)}` : filled;
        const needsBody = op.requestBody !== undefined;
        const body = needsBody ? exampleFor(bodySchemaOf(op)) : undefined;
        expectRefused(await call(op.method, url, body), param.name);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("the spec's own fields answer 400 and store nothing: title, message, name, ?q=", async () => {
    const before = (await call("GET", "/api/sessions")).json().sessions.length;
    expectRefused(await call("POST", "/api/sessions", { title: NUL_TEXT }), "title");
    expectRefused(
      await call("POST", "/api/sessions", { title: "ok", description: NUL_TEXT }),
      "description",
    );
    expectRefused(await call("PUT", "/api/users/profile", { firstName: NUL_TEXT }), "firstName");
    expectRefused(await call("GET", `/api/sessions?q=${encodeURIComponent(NUL_TEXT)}`), "q");
    expect((await call("GET", "/api/sessions")).json().sessions.length).toBe(before);
  });

  it("keys count too: a NUL in a property name is refused", async () => {
    const response = await call("PUT", "/api/users/profile", { "first\u0000Name": "Ada" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain("must not contain NUL characters");
  });
});

describe("NUL in model output", () => {
  it("is dropped before anything is stored: the answer arrives and is kept whole", async () => {
    const { client, user } = await signUp(t.app);
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    expect((await admin.put(`/api/admin/users/${user.id}/tier`, { tier: "pro" })).statusCode).toBe(
      200,
    );
    fake.reset();
    fake.next({ text: "Zero\u0000width and \u0000 nothing else" });
    const response = await client.post("/api/cochat/chat", {
      model: "local:llama3.1",
      messages: [{ role: "user", content: "Say something odd" }],
    });
    expect(response.statusCode).toBe(200);
    const events = parseSse(response.body);
    expect(events.at(-1)?.event).toBe("done");
    const streamed = events
      .filter((e) => e.event === "delta")
      .map((e) => e.data.text)
      .join("");
    expect(streamed).toBe("Zerowidth and  nothing else");
    const id = events.at(-1)?.data.session_id as string;
    const stored = ZCochatConversationResponse.parse(
      (await client.get(`/api/cochat/conversations/${id}`)).json(),
    );
    expect(stored.messages.at(-1)?.content).toBe("Zerowidth and  nothing else");
  });
});

import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, type SignedUp, signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import type { TestClient } from "../support/client";
import type { JsonSchema } from "../support/json-schema-arbitrary";
import { bodySchemaOf, listOperations, type Operation } from "../support/openapi";

/**
 * Advisory class: any input that makes the server fail (decision 052's fuzzer found one 5xx over
 * 150 operations). Every operation of the OpenAPI document — a route added tomorrow is in it —
 * gets a fixed table of malformed inputs as a signed-in, verified user would send them from
 * the browser (cookie and CSRF token): wrong types, missing fields, huge strings, NUL, bad
 * ids, broken JSON, and multipart bodies cut short or malformed (every upload route gets
 * those, every other mutating route one). No answer may be a 5xx. The table is fixed, so a
 * failure reproduces; malformed-bodies.test.ts adds fast-check inputs drawn from the schemas.
 */

const HUGE = "x".repeat(200_000);
const NUL = "a\u0000b";
const BAD_IDS = [
  "x",
  "00000000-0000-0000-0000-000000000000",
  "-1",
  "1e309",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "a".repeat(4096),
  "%F0%9F%92%A9",
];
const QUERY_VALUES = [
  "",
  "-1",
  "NaN",
  "x".repeat(5000),
  "%00",
  "[]",
  "true",
  "99999999999999999999",
];

const BOUNDARY = "----cohortFuzz";
const FILE_HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`;
/** Multipart bodies no parser can finish, or finishes with the wrong parts. */
const MULTIPART: { body: string; contentType: string }[] = [
  { body: `${FILE_HEAD}cut short`, contentType: `multipart/form-data; boundary=${BOUNDARY}` },
  {
    body: `--${BOUNDARY}\r\nContent-Disp`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  },
  { body: "no parts here", contentType: `multipart/form-data; boundary=${BOUNDARY}` },
  { body: `${FILE_HEAD}x\r\n--${BOUNDARY}--\r\n`, contentType: "multipart/form-data" },
  {
    body: `${FILE_HEAD}x\r\n--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${"b".repeat(300)}`,
  },
  {
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="other"; filename="a.txt"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  },
  {
    body: `${FILE_HEAD}x\r\n${FILE_HEAD.slice(0, -4)}\r\n\r\ny\r\n--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  },
  {
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n${NUL}\r\n${FILE_HEAD}x\r\n--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  },
];

let t: TestApp;
let user: SignedUp;
let client: TestClient;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp(
    {
      // The fuzzer is one client sending thousands of requests: limits would answer 429 only.
      RATE_LIMIT_PER_MINUTE: "1000000",
      TELEMETRY_LOGS_PER_MINUTE: "1000000",
      TELEMETRY_ANALYTICS_PER_MINUTE: "1000000",
      ACCESS_TOKEN_RATE_PER_MINUTE: "1000000",
    },
    {
      resolveHost: async () => {
        throw new Error("no DNS in tests");
      },
    },
  );
  user = await signUp(t.app, { verified: true });
  client = user.client;
  operations = await listOperations(t.app);
});
afterAll(() => t.close());

/** A value of the wrong type for a schema: what a careless or hostile client sends. */
function wrongType(schema: JsonSchema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  switch (type) {
    case "string":
      return 12345;
    case "number":
    case "integer":
      return "12";
    case "boolean":
      return "yes";
    case "array":
      return { not: "an array" };
    case "object":
      return ["not", "an", "object"];
    default:
      return { nested: { deeper: [null] } };
  }
}

/** The JSON bodies every mutating operation gets, built from its own schema's fields. */
function bodiesFor(op: Operation): string[] {
  const schema = bodySchemaOf(op);
  const fields = Object.entries(schema?.properties ?? {});
  const bodies: unknown[] = [{}, [], "text", 42, null, { __proto__: { polluted: true } }];
  bodies.push(Object.fromEntries(fields.map(([name, field]) => [name, wrongType(field)])));
  bodies.push(Object.fromEntries(fields.map(([name]) => [name, HUGE])));
  bodies.push(Object.fromEntries(fields.map(([name]) => [name, NUL])));
  bodies.push(Object.fromEntries(fields.map(([name]) => [name, null])));
  const json = bodies.map((body) => JSON.stringify(body));
  return [...json, '{"a":', "\u0000", `{"x":"${"y".repeat(1_100_000)}"}`];
}

function urlFor(op: Operation, id: string, query: Record<string, string>): string {
  const path = op.path.replace(/\{(\w+)\}/g, () => id);
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

/** Signs in again when an operation ended the fuzzer's own sign-in (sign-outs). */
async function keepSignedIn(): Promise<void> {
  if (client.cookies.has(SIGN_IN_COOKIE)) return;
  client = (await logIn(t.app, user.email, user.password)).client;
}

describe("every operation, a fixed table of malformed inputs", () => {
  it("answers no 5xx", async () => {
    expect(operations.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    let uploadRoutes = 0;
    const send = async (
      op: Operation,
      url: string,
      payload?: string,
      contentType = "application/json",
    ) => {
      const mutating = op.method !== "GET" && op.method !== "HEAD";
      const response = await client.request(
        op.method as "GET",
        url,
        mutating ? (payload ?? "{}") : undefined,
        mutating ? { headers: { "content-type": contentType } } : {},
      );
      sent += 1;
      if (response.statusCode >= 500) {
        failures.push(
          `${op.method} ${url.slice(0, 100)} ${String(payload).slice(0, 80)} → ${response.statusCode} ${response.body.slice(0, 160)}`,
        );
      }
      await keepSignedIn();
    };

    for (const op of operations) {
      const params = op.parameters ?? [];
      const query = params.filter((p) => p.in === "query");
      const hasPath = params.some((p) => p.in === "path");
      const mutating = op.method !== "GET" && op.method !== "HEAD";
      const ids = hasPath ? BAD_IDS : ["-"];
      for (const id of ids) await send(op, urlFor(op, id, {}));
      for (const value of QUERY_VALUES) {
        if (query.length === 0) break;
        await send(
          op,
          urlFor(op, BAD_IDS[1] as string, Object.fromEntries(query.map((q) => [q.name, value]))),
        );
      }
      if (!mutating) continue;
      const target = urlFor(op, BAD_IDS[1] as string, {});
      for (const body of bodiesFor(op)) await send(op, target, body);
      // An upload route's multipart body has no schema in the document (the plugin parses it),
      // so its summary is what names it.
      const uploads =
        Object.keys(op.requestBody?.content ?? {}).some((type) => type.startsWith("multipart/")) ||
        /multipart\/form-data/.test(String((op as { summary?: unknown }).summary ?? ""));
      if (uploads) uploadRoutes += 1;
      for (const multipart of uploads ? MULTIPART : MULTIPART.slice(0, 1)) {
        await send(op, uploads ? op.path : target, multipart.body, multipart.contentType);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    // POST /api/documents at least: the multipart table reached an upload route.
    expect(uploadRoutes).toBeGreaterThan(0);
  }, 300_000);
});

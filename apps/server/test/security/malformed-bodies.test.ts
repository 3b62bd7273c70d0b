/**
 * Advisory class: malformed and oversized input (decision 018). Every route in the OpenAPI
 * document — so a route added tomorrow is covered without new test code — gets inputs drawn
 * from its own contract (path, query and body), edge cases and junk. No answer may be a 5xx,
 * and an answer of 4xx must have changed nothing in the database.
 */
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client";
import { signUp } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { arbitraryFor } from "../support/json-schema-arbitrary";
import { bodySchemaOf, listOperations, type Operation } from "../support/openapi";

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

/** Writes a 4xx may make by design: counting a refused attempt is the point of a throttle. */
const COUNTERS = new Set(["auth_throttle"]);
/** Columns that move on any authenticated read (the sign-in's last use). */
const VOLATILE: Record<string, string> = {
  sign_ins: "id, user_id, revoked_at, expires_at",
};
/**
 * Routes not fuzzed, each for a reason: signing out ends the fuzzer's own sign-in (it has no
 * input to fuzz either); the data zip takes no input and answers a zip, not JSON.
 */
const SKIPPED = new Set(["POST /api/auth/logout", "GET /api/account/export"]);

let t: TestApp;
let token: string;
let operations: Operation[];
let tables: string[];

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      // No DNS: a generated base URL must never reach a real resolver or the network.
      resolveHost: async () => {
        throw new Error("no DNS in tests");
      },
    },
  );
  ({ token } = await signUp(t.app));
  operations = await listOperations(t.app);
  tables = await listTables(t.db);
});
afterAll(() => t.close());

async function listTables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return rows.map((r) => r.name).filter((name) => !COUNTERS.has(name));
}

/** A digest of every row of every table (the test database is small). */
async function fingerprint(db: Db): Promise<string> {
  const parts = tables.map(
    (name) =>
      `SELECT '${name}' AS t, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h
         FROM (SELECT ${VOLATILE[name] ?? "*"} FROM "${name}") x`,
  );
  const { rows } = await db.query<{ t: string; h: string }>(parts.join(" UNION ALL "));
  return rows.map((r) => `${r.t}:${r.h}`).join(",");
}

function inputsFor(op: Operation) {
  const params = op.parameters ?? [];
  const group = (where: "path" | "query") =>
    fc.record(
      Object.fromEntries(
        params.filter((p) => p.in === where).map((p) => [p.name, arbitraryFor(p.schema)]),
      ),
      {
        requiredKeys:
          where === "path" ? params.filter((p) => p.in === "path").map((p) => p.name) : [],
      },
    );
  const body = arbitraryFor(bodySchemaOf(op));
  return fc.record({
    path: group("path"),
    query: group("query"),
    body: fc.oneof(
      { weight: 8, arbitrary: body.map((value) => JSON.stringify(value) ?? "null") },
      // Not JSON at all, or cut short, or far too big.
      {
        weight: 1,
        arbitrary: fc.constantFrom("{", "[1,", "\u0000", '{"a":1}}', "x".repeat(1_100_000)),
      },
    ),
  });
}

/** As a client would put it in a URL; a lone surrogate cannot be percent-encoded. */
function text(value: unknown): string {
  const raw = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  return raw.replace(/[\uD800-\uDFFF]/gu, "\uFFFD");
}

function urlOf(op: Operation, path: Record<string, unknown>, query: Record<string, unknown>) {
  const filled = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(text(path[name]) || "x"),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, text(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

async function send(app: FastifyInstance, op: Operation, url: string, payload: string) {
  const mutating = op.method !== "GET" && op.method !== "HEAD";
  return app.inject({
    method: op.method as "GET",
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(mutating ? { "content-type": "application/json" } : {}),
    },
    ...(mutating ? { payload } : {}),
  });
}

describe("URLs that cannot be decoded", () => {
  it.each(["/%c0%ae%c0%ae/x", "/api/%E0%A4%A", "/api/sessions/%ff"])(
    "%s answers 400 in the standard error shape",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: expect.any(String), message: expect.any(String) },
      });
    },
  );
});

describe("every route, fuzzed from its contract", () => {
  it("found the routes in the OpenAPI document", () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it("answers no 5xx and changes nothing on a 4xx", async () => {
    const failures: string[] = [];
    for (const op of operations) {
      if (SKIPPED.has(`${op.method} ${op.path}`)) continue;
      let before = await fingerprint(t.db);
      await fc.assert(
        fc.asyncProperty(inputsFor(op), async ({ path, query, body }) => {
          const url = urlOf(op, path, query);
          const response = await send(t.app, op, url, body);
          const label = `${op.method} ${url.slice(0, 120)} ${body.slice(0, 120)} → ${response.statusCode}`;
          if (process.env.FUZZ_DEBUG) console.log(label.slice(0, 200));
          if (response.statusCode >= 500) failures.push(`${label} ${response.body.slice(0, 200)}`);
          // Mail goes out after the answer; what a 2xx sent belongs to that 2xx.
          await t.app.mailer.settled();
          // Telemetry is written in batches after the answer; likewise it belongs to its 2xx.
          await t.app.telemetry.flush();
          const after = await fingerprint(t.db);
          if (response.statusCode >= 400 && after !== before)
            failures.push(`state changed: ${label}`);
          before = after;
          expect(response.json()).toBeTypeOf("object");
        }),
        { numRuns: RUNS },
      );
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

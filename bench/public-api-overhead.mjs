#!/usr/bin/env node
// What the OpenAI-compatible API (`POST /api/v1/chat/completions`, streaming) adds over the
// internal call for the same catalogue model (`POST /api/cochat/chat`), end to end: every
// streamed chunk carries the wall-clock time the fake provider wrote it (bench/fake-provider.mjs,
// its own process), and the client takes its receipt time minus that stamp. Both paths run
// on the same built server (one process, embedded PGlite unless BENCH_DATABASE_URL), the same
// model (`cochat` on a hosted OpenAI key pointed at the fake provider), the same client
// (fetch, kept alive), calls interleaved. /api/v1 does what CoChat does not: the access token
// check, the per-token rate limit, a credit hold beside the provider request and its
// settlement, OpenAI's chunk format. The floor is the fake provider read directly.
// BENCH_CALLS calls per path (default 200); p50 and p99 over every chunk, and of the time to
// the first chunk.
import { cpus, loadavg } from "node:os";
import { buildIfStale } from "../scripts/build.mjs";
import { csrfHeaders } from "../test-support/api-client.mjs";
import {
  BENCH_ADMIN,
  BENCH_ADMIN_ENV,
  machine,
  startFakeProvider,
  startServer,
} from "./server.mjs";

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const WARMUP = Math.min(20, CALLS);
const TTFT_MS = 20;
const CHUNK_MS = 5;
const CHUNKS = 20;
const MODEL = "cochat";
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";
const LIMIT = "100000";
const STAMP = /⟦t=(\d+\.\d+)⟧/g;
const messages = [{ role: "user", content: "Say twenty words." }];
const now = () => performance.timeOrigin + performance.now();

async function api(base, token, method, url, body, headers = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** A signed-up pro user (CoChat is for pro and up) with an access token of scope `chat`. */
async function benchUser(base) {
  const { agreement } = await api(base, null, "GET", "/api/agreements/current");
  const email = `bench-${Date.now()}@example.com`;
  const { token, user } = await api(
    base,
    null,
    "POST",
    "/api/user-auth/signup",
    {
      email,
      password: "benchmark passphrase 1",
      firstName: "Bench",
      lastName: "Mark",
      agreementId: agreement.id,
    },
    await csrfHeaders(base),
  );
  const admin = await api(base, null, "POST", "/api/admin/login", BENCH_ADMIN, {
    authorization: "Bearer bench",
  });
  await api(base, admin.token, "PUT", `/api/admin/users/${user.id}/tier`, { tier: "pro" });
  await api(base, admin.token, "POST", `/api/admin/users/${user.id}/credits`, {
    delta: 1_000_000,
    reason: "benchmark",
    idempotencyKey: `bench-${user.id}`,
  });
  const created = await api(base, token, "POST", "/api/users/access-tokens", {
    name: "benchmark",
    scopes: ["chat"],
  });
  return { signIn: token, accessToken: created.token };
}

/** Frames that repeat the whole text (the Responses API's closing events) carry old stamps. */
const REPEATS = /response\.output_item\.done|response\.completed/;

/** Reads a streamed answer; every stamp's age at receipt, and the time to the first stamp. */
async function measure(url, init) {
  const sent = performance.now();
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  const ages = [];
  let first = null;
  let buffer = "";
  for await (const bytes of response.body) {
    const received = now();
    buffer += decoder.decode(bytes, { stream: true });
    const frames = buffer.split("\n\n");
    buffer = frames.pop() ?? "";
    for (const frame of frames) {
      if (REPEATS.test(frame)) continue;
      for (const match of frame.matchAll(STAMP)) {
        ages.push(received - Number(match[1]));
        first ??= performance.now() - sent;
      }
    }
  }
  if (ages.length !== CHUNKS) throw new Error(`${url}: ${ages.length} stamps, not ${CHUNKS}`);
  return { ages, first };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
};
const fmt = (ms) => `${ms.toFixed(2)} ms`;

const ENTRY = process.env.BENCH_SERVER_ENTRY ?? "apps/server/dist/main.js";
if (ENTRY === "apps/server/dist/main.js") await buildIfStale({ only: ["server"] });
const fake = await startFakeProvider({ ttftMs: TTFT_MS, chunkMs: CHUNK_MS, chunks: CHUNKS });
const server = await startServer({
  entry: ENTRY,
  env: {
    LOG_LEVEL,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    ACCESS_TOKEN_RATE_PER_MINUTE: "1000000000",
    COCHAT_MESSAGES_PER_HOUR: LIMIT,
    ...BENCH_ADMIN_ENV,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fake.url,
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
});
const configuration = `server ${ENTRY}, database ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite (embedded)"}, LOG_LEVEL=${LOG_LEVEL}, model ${MODEL} on a hosted OpenAI key → fake provider (own process, Responses API, TTFT ${TTFT_MS} ms, ${CHUNKS} chunks ${CHUNK_MS} ms apart, each stamped), ${CALLS} calls per path interleaved after ${WARMUP} warm-up rounds, ${cpus().length} CPUs`;
try {
  const user = await benchUser(server.url);
  const json = { "content-type": "application/json" };
  const paths = {
    "provider directly (floor)": () =>
      measure(`${fake.url}/responses`, {
        method: "POST",
        headers: { ...json, authorization: "Bearer sk-bench" },
        body: JSON.stringify({ model: "gpt-4o", stream: true, input: messages }),
      }),
    "internal: POST /api/cochat/chat": () =>
      measure(`${server.url}/api/cochat/chat`, {
        method: "POST",
        headers: { ...json, authorization: `Bearer ${user.signIn}` },
        body: JSON.stringify({ model: MODEL, messages }),
      }),
    "public: POST /api/v1/chat/completions": () =>
      measure(`${server.url}/api/v1/chat/completions`, {
        method: "POST",
        headers: { ...json, authorization: `Bearer ${user.accessToken}` },
        body: JSON.stringify({ model: MODEL, messages, stream: true }),
      }),
  };
  const names = Object.keys(paths);
  const results = Object.fromEntries(names.map((n) => [n, { ages: [], first: [] }]));
  const loadBefore = loadavg()[0].toFixed(2);
  for (let round = 0; round < WARMUP + CALLS; round++) {
    // Rotate which path goes first, so none always meets a warmer connection or JIT.
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const { ages, first } = await paths[name]();
      if (round < WARMUP) continue;
      results[name].ages.push(...ages);
      results[name].first.push(first);
    }
  }
  const loadAfter = loadavg()[0].toFixed(2);
  const row = (r) => ({
    "chunk p50": percentile(r.ages, 0.5),
    "chunk p99": percentile(r.ages, 0.99),
    "first chunk p50": percentile(r.first, 0.5),
    "first chunk p99": percentile(r.first, 0.99),
  });
  const rows = Object.fromEntries(names.map((n) => [n, row(results[n])]));
  const internal = rows[names[1]];
  const v1 = rows[names[2]];
  const overhead = Object.fromEntries(Object.keys(v1).map((k) => [k, v1[k] - internal[k]]));
  const show = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fmt(v)]));
  console.log(
    `machine: ${machine()}; date ${new Date().toISOString()}; load ${loadBefore}→${loadAfter}`,
  );
  console.log(`configuration: ${configuration}`);
  console.log("Provider send → client receipt per chunk, and request → first chunk:");
  console.table({
    ...Object.fromEntries(names.map((n) => [n, show(rows[n])])),
    "overhead of /api/v1 over the internal call": show(overhead),
  });
} finally {
  await server.stop();
  fake.stop();
}

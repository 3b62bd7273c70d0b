#!/usr/bin/env node
// `npm run bench:models`: what Cohort's model layer adds to time-to-first-token. The same SDK
// client (AI SDK, OpenAI chat completions) streams from the local fake provider server twice
// per round: once called directly, once through the gateway (catalogue lookup, fallback
// chain, time-out and abort wiring, retry bookkeeping, health tracking, usage and price).
// Both paths pay the same HTTP and SSE cost, so the difference is the layer's overhead.
// p50 and p99 over BENCH_CALLS calls (default 1,000) per path; the target is under 1 ms at
// p50. Runs under tsx (the gateway and the fake server are TypeScript).
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { createModelGateway } from "../apps/server/src/modules/models/gateway.ts";
import { FakeProviderServer } from "../apps/server/test/support/fake-provider/fake-provider-server.ts";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = Math.min(100, CALLS);
const MODEL = "gpt-4o";
const messages = [{ role: "user", content: "Say hello in five words." }];

const fake = await FakeProviderServer.start();
fake.defaultReply = {
  text: "Hello there, from the fake provider, streaming.",
  usage: { inputTokens: 12, outputTokens: 9 },
};
// The fake keeps every request for inspection; a benchmark has no use for them.
const recorded = fake.requests;

const gateway = createModelGateway({
  config: {
    openai: { apiKey: "sk-bench", baseUrl: fake.baseUrls.openai, api: "chat" },
    anthropic: { apiKey: undefined, baseUrl: fake.baseUrls.anthropic },
    google: { apiKey: undefined, baseUrl: fake.baseUrls.google },
    openaiCompatible: { baseUrl: undefined, apiKey: undefined, models: [] },
    catalogueFile: undefined,
    callTimeoutMs: 30_000,
    maxAttempts: 3,
    retryBaseDelayMs: 500,
    retryMaxDelayMs: 20_000,
    simulatorTokensPerSecond: 0,
  },
});
const backing = gateway.resolve(MODEL)?.targets[0];
if (backing?.provider !== "openai") throw new Error(`${MODEL} does not resolve to OpenAI`);
const direct = createOpenAI({ apiKey: "sk-bench", baseURL: fake.baseUrls.openai }).chat(
  backing.providerModel,
);

/** Time to the first text delta, then the rest of the stream read to its end. */
async function viaSdk() {
  const started = performance.now();
  let first = null;
  const result = streamText({ model: direct, messages, maxRetries: 0 });
  for await (const part of result.fullStream) {
    if (part.type === "text-delta" && first === null) first = performance.now() - started;
  }
  return first;
}

async function viaGateway() {
  const started = performance.now();
  let first = null;
  await gateway.streamModel({
    modelId: MODEL,
    messages,
    onDelta: () => {
      first ??= performance.now() - started;
    },
  });
  return first;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
const fmt = (ms) => `${ms.toFixed(3)} ms`;

for (let i = 0; i < WARMUP; i++) {
  await viaSdk();
  await viaGateway();
  recorded.length = 0;
}

const sdk = [];
const layer = [];
for (let i = 0; i < CALLS; i++) {
  // Alternate which path goes first, so neither always meets a warmer connection or JIT.
  if (i % 2 === 0) {
    sdk.push(await viaSdk());
    layer.push(await viaGateway());
  } else {
    layer.push(await viaGateway());
    sdk.push(await viaSdk());
  }
  recorded.length = 0;
}
await fake.close();

sdk.sort((a, b) => a - b);
layer.sort((a, b) => a - b);
const p50 = { sdk: percentile(sdk, 0.5), layer: percentile(layer, 0.5) };
const p99 = { sdk: percentile(sdk, 0.99), layer: percentile(layer, 0.99) };
const overheadP50 = p50.layer - p50.sdk;
const overheadP99 = p99.layer - p99.sdk;

console.log(
  `Time to first token, ${CALLS} calls per path (AI SDK → local fake OpenAI, streaming):`,
);
console.table({
  "SDK directly": { p50: fmt(p50.sdk), p99: fmt(p99.sdk) },
  "through Cohort's gateway": { p50: fmt(p50.layer), p99: fmt(p99.layer) },
  "overhead of the layer": { p50: fmt(overheadP50), p99: fmt(overheadP99) },
});
const ok = overheadP50 < 1;
console.log(
  `${ok ? "PASS" : "FAIL"}: the layer adds ${fmt(overheadP50)} at p50 (target: under 1 ms).`,
);
process.exitCode = ok ? 0 : 1;

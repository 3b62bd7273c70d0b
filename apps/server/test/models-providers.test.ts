import { MODEL_ERROR_CODES, priceCall, ZModelsHealthResponse, ZRunPlan } from "@cohort/contracts";
import { zodSchema } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createModelGateway } from "../src/modules/models/gateway";
import { AppError } from "../src/platform/errors";
import { createTestApp, type TestApp } from "./support/app";
import {
  FakeProviderServer,
  type RecordedRequest,
} from "./support/fake-provider/fake-provider-server";

/**
 * The real AI SDK clients (OpenAI responses and chat completions, Anthropic, Google,
 * OpenAI-compatible) against local servers that speak their wire formats, through the
 * gateway of a fully built app.
 */

const fakes: Record<
  "openai" | "openaiChat" | "anthropic" | "google" | "compat",
  FakeProviderServer
> = {} as never;
let app: TestApp;
let chatApp: TestApp;

const LONG_ANSWER = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");

beforeAll(async () => {
  for (const name of ["openai", "openaiChat", "anthropic", "google", "compat"] as const) {
    fakes[name] = await FakeProviderServer.start();
  }
  const common = {
    SIMULATOR_TOKENS_PER_SECOND: "0",
    MODEL_RETRY_BASE_DELAY_MS: "10",
    MODEL_RETRY_MAX_DELAY_MS: "3000",
    ANTHROPIC_API_KEY: "sk-ant-hosted",
    ANTHROPIC_BASE_URL: fakes.anthropic.baseUrls.anthropic,
    GOOGLE_GENERATIVE_AI_API_KEY: "google-hosted",
    GOOGLE_BASE_URL: fakes.google.baseUrls.google,
    OPENAI_COMPATIBLE_BASE_URL: fakes.compat.baseUrls.openaiCompatible,
    OPENAI_COMPATIBLE_MODELS: "llama3.1",
  };
  app = await createTestApp({
    ...common,
    OPENAI_API_KEY: "sk-openai-hosted",
    OPENAI_BASE_URL: fakes.openai.baseUrls.openai,
  });
  chatApp = await createTestApp({
    ...common,
    OPENAI_API_KEY: "sk-openai-hosted",
    OPENAI_BASE_URL: fakes.openaiChat.baseUrls.openai,
    OPENAI_API: "chat",
  });
});

afterAll(async () => {
  await Promise.all([app?.close(), chatApp?.close()]);
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

beforeEach(() => {
  for (const fake of Object.values(fakes)) fake.reset();
});

async function expectAppError(promise: Promise<unknown>, code: string, status: number) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code, statusCode: status });
  return error as AppError;
}

/** A provider's requests carry its key in this header. */
const keyIn = (header: string, value: string) => (r: RecordedRequest) =>
  r.headers[header] === value;
const OPENAI_KEY = keyIn("authorization", "Bearer sk-openai-hosted");

/** One wire format: its fake server, the model called on it, and the path its stream is read from. */
const wireFormat = (
  name: string,
  fake: keyof typeof fakes,
  modelId: string,
  path: string,
  auth: (r: RecordedRequest) => boolean,
  gatewayApp: () => TestApp = () => app,
) => ({
  name,
  fake: () => fakes[fake],
  gateway: () => gatewayApp().app.models,
  modelId,
  path,
  auth,
});

const variants = [
  wireFormat("OpenAI responses API", "openai", "gpt-4.1", "/v1/responses", OPENAI_KEY),
  wireFormat(
    "OpenAI chat completions",
    "openaiChat",
    "gpt-4.1",
    "/v1/chat/completions",
    OPENAI_KEY,
    () => chatApp,
  ),
  wireFormat(
    "Anthropic messages",
    "anthropic",
    "claude-sonnet-4",
    "/v1/messages",
    keyIn("x-api-key", "sk-ant-hosted"),
  ),
  wireFormat(
    "Gemini streamGenerateContent",
    "google",
    "gemini-2.5-pro",
    "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
    keyIn("x-goog-api-key", "google-hosted"),
  ),
  wireFormat(
    "OpenAI-compatible server",
    "compat",
    "local:llama3.1",
    "/v1/chat/completions",
    () => true,
  ),
];

describe.each(variants)("$name", (variant) => {
  const messages = [{ role: "user" as const, content: "Say hello" }];

  it("streams the answer piece by piece and reports usage and price", async () => {
    const fake = variant.fake();
    fake.next({
      text: "Hello there, this streams in pieces.",
      usage: { inputTokens: 20, outputTokens: 7 },
    });
    const deltas: string[] = [];
    const result = await variant.gateway().streamModel({
      modelId: variant.modelId,
      messages,
      onDelta: (d) => deltas.push(d),
    });
    expect(result.text).toBe("Hello there, this streams in pieces.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(result.text);
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 7 });
    expect(result.usageEstimated).toBe(false);
    const model = variant.gateway().catalogue.getModel(variant.modelId);
    expect(result.credits).toBe(priceCall(model as NonNullable<typeof model>, result.usage));
    expect(result).toMatchObject({ simulated: false, keySource: "hosted", failedAttempts: 0 });
    expect(result.ttftMs).not.toBeNull();
    const [request] = fake.requests;
    expect(request?.path).toBe(variant.path);
    expect(request?.stream).toBe(true);
    expect(variant.auth(request as RecordedRequest)).toBe(true);
    expect(JSON.stringify(request?.body)).toContain("Say hello");
  });

  it("waits for Retry-After on a 429 and then succeeds", async () => {
    const fake = variant.fake();
    fake.next({ status: 429, headers: { "retry-after": "1" } }, { text: "after the wait" });
    const result = await variant.gateway().streamModel({ modelId: variant.modelId, messages });
    expect(result.text).toBe("after the wait");
    expect(result.failedAttempts).toBe(1);
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests as [RecordedRequest, RecordedRequest];
    // A lower bound only: the gateway must not retry before the provider allows it.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it.each([
    {
      title: "fails clearly when the stream is cut mid-way, without retrying a half-sent answer",
      reply: { text: LONG_ANSWER, cutAfterChunks: 5 },
      timeout: {},
      failure: [MODEL_ERROR_CODES.streamInterrupted, 502, /was cut off/],
    },
    {
      title: "times out a stream that stalls mid-answer, keeping what the caller already saw",
      reply: { text: LONG_ANSWER, chunkDelayMs: 200 },
      timeout: { timeoutMs: 800 },
      failure: [MODEL_ERROR_CODES.providerTimeout, 504, /stopped answering/],
    },
  ] as const)("$title", async ({ reply, timeout, failure: [code, status, message] }) => {
    const fake = variant.fake();
    fake.next(reply);
    const deltas: string[] = [];
    const error = await expectAppError(
      variant.gateway().streamModel({
        modelId: variant.modelId,
        messages,
        ...timeout,
        onDelta: (d) => deltas.push(d),
      }),
      code,
      status,
    );
    expect(error.message).toMatch(message);
    expect(deltas.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
  });

  it("times out a provider that never answers, within the configured time", async () => {
    const fake = variant.fake();
    // The fake never answers, so only the gateway's own timer can end the call.
    fake.next({ hang: true });
    const error = await expectAppError(
      variant.gateway().streamModel({ modelId: variant.modelId, messages, timeoutMs: 300 }),
      MODEL_ERROR_CODES.providerTimeout,
      504,
    );
    expect(error.message).toMatch(/did not answer within/);
    expect(await fake.requests[0]?.closed).toEqual({ early: true });
  });

  it("aborts the provider request when the caller stops", async () => {
    const fake = variant.fake();
    fake.next({ text: LONG_ANSWER, chunkDelayMs: 30 });
    const controller = new AbortController();
    let deltas = 0;
    await expectAppError(
      variant.gateway().streamModel({
        modelId: variant.modelId,
        messages,
        abortSignal: controller.signal,
        onDelta: () => {
          deltas += 1;
          if (deltas === 2) controller.abort();
        },
      }),
      MODEL_ERROR_CODES.callAborted,
      499,
    );
    expect(await fake.requests[0]?.closed).toEqual({ early: true });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("fallback and failure", () => {
  const messages = [{ role: "user" as const, content: "Plan a launch" }];

  it("falls back to the next provider after repeated 500s", async () => {
    fakes.openai.next({ status: 500 }, { status: 500 }, { status: 500 });
    fakes.anthropic.next({ text: "Anthropic answered" });
    const result = await app.app.models.streamModel({ modelId: "coreason", messages });
    expect(result).toMatchObject({
      text: "Anthropic answered",
      provider: "anthropic",
      providerModel: "claude-sonnet-4-0",
      failedAttempts: 3,
    });
    expect(fakes.openai.requests).toHaveLength(3);
    const health = ZModelsHealthResponse.parse(
      (await app.app.inject({ method: "GET", url: "/api/models/health" })).json(),
    );
    const openai = health.providers.find((p) => p.provider === "openai");
    const anthropic = health.providers.find((p) => p.provider === "anthropic");
    expect(openai).toMatchObject({ configured: true, mode: "real", reachable: false });
    expect(openai?.last_error?.code).toBe("server_error");
    expect(anthropic).toMatchObject({ reachable: true });
    expect(anthropic?.latency_ms_p50).toEqual(expect.any(Number));
    expect(health.status).toBe("degraded");
  });

  it("falls back at once when Retry-After is longer than the gateway will wait", async () => {
    fakes.openai.next({ status: 429, headers: { "retry-after": "3600" } });
    fakes.anthropic.next({ text: "no waiting" });
    const result = await app.app.models.streamModel({ modelId: "coreason", messages });
    expect(result.provider).toBe("anthropic");
    expect(fakes.openai.requests).toHaveLength(1);
  });

  it("retries a stream cut before any text reached the caller", async () => {
    fakes.openai.next({ text: LONG_ANSWER, cutAfterChunks: 0 }, { text: "second try" });
    const result = await app.app.models.streamModel({ modelId: "gpt-4.1", messages });
    expect(result.text).toBe("second try");
    expect(fakes.openai.requests).toHaveLength(2);
  });

  it("names the model when every provider fails, and never falls back to the simulator", async () => {
    const down = { status: 503, errorMessage: "overloaded" };
    fakes.openai.next(down, down, down);
    fakes.anthropic.next(down, down, down);
    fakes.google.next(down, down, down);
    const error = await expectAppError(
      app.app.models.streamModel({ modelId: "coreason", messages }),
      MODEL_ERROR_CODES.providerUnavailable,
      502,
    );
    expect(error.message).toContain("CoReason is unavailable right now");
    expect(error.message).not.toContain("overloaded");
    expect(
      (error.details as { attempts: { provider: string }[] }).attempts.map((a) => a.provider),
    ).toEqual([
      "openai",
      "openai",
      "openai",
      "anthropic",
      "anthropic",
      "anthropic",
      "google",
      "google",
      "google",
    ]);
  });

  it("uses the user's own key instead of the hosted one, at no credit cost", async () => {
    fakes.openai.next({ text: "on your key" });
    const result = await app.app.models.streamModel({
      modelId: "gpt-4.1",
      messages,
      userKeys: { openai: { apiKey: "sk-user-own" } },
    });
    expect(result).toMatchObject({ text: "on your key", keySource: "user", credits: 0 });
    expect(fakes.openai.requests[0]?.headers.authorization).toBe("Bearer sk-user-own");
    expect(
      app.app.models.estimateCall({
        modelId: "gpt-4.1",
        messages,
        userKeys: { openai: { apiKey: "k" } },
      }),
    ).toMatchObject({ billable: false, worstCaseCredits: 0 });
  });

  /** Streams `modelId` on the user's keys, which its provider must refuse (a 400 for the user). */
  const refusedOnUserKey = (
    modelId: string,
    userKeys: { openai?: { apiKey: string }; anthropic?: { apiKey: string } },
  ) =>
    expectAppError(
      app.app.models.streamModel({ modelId, messages, userKeys }),
      MODEL_ERROR_CODES.providerKeyRejected,
      400,
    );

  it("says the user's key in Settings was refused: one request, no retry, no hosted key", async () => {
    fakes.openai.next({ status: 401, errorMessage: "Incorrect API key provided: sk-user***" });
    const error = await refusedOnUserKey("gpt-4.1", { openai: { apiKey: "sk-user-bad" } });
    expect(error.message).toBe(
      "Your OpenAI key in Settings was refused (OpenAI answered 401), so GPT-4.1 could not answer. Replace or remove the key in Settings.",
    );
    expect(error.details).toMatchObject({ provider: "openai", settings_url: "/settings" });
    expect(fakes.openai.requests).toHaveLength(1);
    expect(fakes.openai.requests[0]?.headers.authorization).toBe("Bearer sk-user-bad");

    fakes.anthropic.next({ status: 403 });
    const claude = await refusedOnUserKey("claude-sonnet-4", {
      anthropic: { apiKey: "sk-ant-user-bad" },
    });
    expect(claude.message).toMatch(/^Your Anthropic key in Settings was refused \(Anthropic/);
    expect(fakes.anthropic.requests).toHaveLength(1);
    // The provider's health is not blamed for a user's key.
    const openaiHealth = async () =>
      ZModelsHealthResponse.parse(
        (await app.app.inject({ method: "GET", url: "/api/models/health" })).json(),
      ).providers.find((p) => p.provider === "openai");
    const before = await openaiHealth();
    fakes.openai.next({ status: 403 });
    await refusedOnUserKey("gpt-4.1", { openai: { apiKey: "sk-user-bad" } });
    // It is counted as a call on a user's key, whose failure it was (decision 056).
    const after = await openaiHealth();
    const uncounted = { user_key_calls: 0, user_key_failures: 0 };
    expect({ ...after, ...uncounted }).toEqual({ ...before, ...uncounted });
    expect(after?.user_key_calls).toBe((before?.user_key_calls ?? 0) + 1);
    expect(after?.user_key_failures).toBe((before?.user_key_failures ?? 0) + 1);
  });

  it("stops at a refused user key, even with another provider behind it", async () => {
    // An operator's model (MODELS_CONFIG_FILE) on OpenAI, then Anthropic's hosted key: the
    // refusal is the user's to fix, and the hosted key is not spent in its place.
    const catalogue = app.app.models.catalogue;
    const gpt = catalogue.getModel("gpt-4.1");
    if (!gpt) throw new Error("no gpt-4.1");
    const twoProviders = {
      ...gpt,
      backends: [...gpt.backends, { provider: "anthropic" as const, model: "claude-sonnet-4-0" }],
    };
    const gateway = createModelGateway({
      config: app.app.config.models,
      catalogue: {
        ...catalogue,
        getModel: (id) => (id === gpt.id ? twoProviders : catalogue.getModel(id)),
      },
    });
    fakes.openai.next({ status: 401 });
    await expectAppError(
      gateway.streamModel({
        modelId: "gpt-4.1",
        messages,
        userKeys: { openai: { apiKey: "sk-x" } },
      }),
      MODEL_ERROR_CODES.providerKeyRejected,
      400,
    );
    expect(fakes.openai.requests).toHaveLength(1);
    expect(fakes.anthropic.requests).toHaveLength(0);
  });

  it("never runs a native Co* model on the user's key: it stays on the hosted keys", async () => {
    fakes.openai.next({ text: "CoReason on the hosted key" });
    const result = await app.app.models.streamModel({
      modelId: "coreason",
      messages,
      userKeys: { openai: { apiKey: "sk-user-wrong" }, anthropic: { apiKey: "sk-ant-user" } },
    });
    expect(result).toMatchObject({ keySource: "hosted", provider: "openai" });
    expect(fakes.openai.requests[0]?.headers.authorization).toBe("Bearer sk-openai-hosted");
    expect(app.app.models.resolve("coreason", { openai: { apiKey: "k" } })?.source).toBe(
      "hosted_key",
    );
    expect(app.app.models.resolve("gpt-4.1", { openai: { apiKey: "k" } })?.source).toBe("user_key");
    expect(app.app.models.resolve("gpt-4.1")?.source).toBe("hosted_key");
    expect(app.app.models.resolve("local:llama3.1")?.source).toBe("local_server");
  });

  it("returns the coordinator's plan as validated structured output from each SDK", async () => {
    const plan = {
      rationale: "Code first, then review.",
      steps: [
        { id: "s1", role: "coder", task: "Write it", dependsOn: [] },
        { id: "s2", role: "critic", task: "Review it", dependsOn: ["s1"] },
      ],
    };
    for (const [fake, modelId] of [
      [fakes.openai, "gpt-4.1"],
      [fakes.anthropic, "claude-sonnet-4"],
      [fakes.google, "gemini-2.5-pro"],
    ] as const) {
      fake.next({ json: plan });
      const result = await app.app.models.generatePlan({ modelId, request: "Write a CSV parser" });
      expect(result.plan).toEqual(plan);
    }
  });

  it("asks for the plan in the provider's JSON mode, with the schema the AI SDK would send", async () => {
    const plan = {
      rationale: "One step.",
      steps: [{ id: "s1", role: "coder", task: "Write it", dependsOn: [] }],
    };
    for (let i = 0; i < 2; i++) {
      fakes.openai.next({ json: plan });
      await app.app.models.generatePlan({ modelId: "gpt-4.1", request: "Write a CSV parser" });
      expect(fakes.openai.requests.at(-1)?.body.text).toMatchObject({
        format: {
          type: "json_schema",
          name: "run_plan",
          schema: await zodSchema(ZRunPlan).jsonSchema,
        },
      });
    }
  });

  it("strips NUL characters from the plan before checking it, so a task of only NULs is refused", async () => {
    const step = { id: "s1", role: "coder", dependsOn: [] };
    fakes.openai.next({
      json: { rationale: "Fine\u0000.", steps: [{ ...step, task: "Write\u0000 it" }] },
    });
    const clean = await app.app.models.generatePlan({ modelId: "gpt-4.1", request: "Anything" });
    expect(clean.plan.rationale).toBe("Fine.");
    expect(clean.plan.steps[0]?.task).toBe("Write it");
    fakes.openai.next({ json: { rationale: "Empty task.", steps: [{ ...step, task: "\u0000" }] } });
    await expectAppError(
      app.app.models.generatePlan({ modelId: "gpt-4.1", request: "Anything" }),
      MODEL_ERROR_CODES.invalidOutput,
      502,
    );
  });

  it.each([
    ["is not JSON", { text: "{not json" }],
    ["does not match the schema", { json: { rationale: "x", steps: [] } }],
  ])("rejects a plan that %s as the model's fault", async (_, reply) => {
    fakes.openai.next(reply);
    await expectAppError(
      app.app.models.generatePlan({ modelId: "gpt-4.1", request: "Anything" }),
      MODEL_ERROR_CODES.invalidOutput,
      502,
    );
  });

  it("estimates usage when the provider reports none", async () => {
    fakes.compat.next({ text: "no usage here", omitUsage: true });
    const result = await app.app.models.streamModel({ modelId: "local:llama3.1", messages });
    expect(result.usageEstimated).toBe(true);
    expect(result.usage.outputTokens).toBe(Math.ceil("no usage here".length / 4));
  });
});

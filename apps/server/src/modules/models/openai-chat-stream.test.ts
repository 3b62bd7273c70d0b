import { createOpenAICompatible, VERSION } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import {
  abortAfterFirstText,
  callErrorFields,
  comparableParts,
  expectLeftToSdk,
  expectSameFailureOnCutBody,
  expectSameFailureWithoutErrorBody,
  expectSameHttpFailure,
  failureOf,
  httpFailureReplies,
  partsOf,
  recordingFetch,
  refusedBaseUrl,
  SDK_RUNTIME,
  type SentRequest,
  sameRequest,
  TEXT_PROMPTS,
  TEXT_SETTINGS,
  useProviderServers,
  user,
} from "../../../test/support/provider-streams";
import { withLightChatStream } from "./openai-chat-stream";
import { createProviders } from "./providers";

/**
 * Our Chat Completions reader against the SDK's own OpenAI-compatible chat model (created as
 * `providers.ts` creates it), on the same servers: what goes on the wire, the stream parts
 * that come back and the errors must be the same.
 */

const API_KEY = "sk-local";
const NAME = "openai-compatible";
let sent: SentRequest[] = [];
const fetchRecorded: typeof globalThis.fetch = (input, init) => recordingFetch(sent)(input, init);

function sdkModel(baseURL: string, modelId: string, apiKey: string | undefined) {
  return createOpenAICompatible({
    name: NAME,
    baseURL,
    ...(apiKey ? { apiKey } : {}),
    fetch: fetchRecorded,
    includeUsage: true,
    supportsStructuredOutputs: true,
  }).chatModel(modelId);
}

function modelsFor(
  baseURL: string,
  modelId = "llama3.1",
  key: string | null = API_KEY,
): { sdk: LanguageModelV3; ours: LanguageModelV3 } {
  const apiKey = key ?? undefined;
  return {
    sdk: sdkModel(baseURL, modelId, apiKey),
    ours: withLightChatStream(sdkModel(baseURL, modelId, apiKey), {
      baseURL,
      apiKey,
      userAgent: `ai-sdk/openai-compatible/${VERSION}`,
      providerName: NAME,
      fetch: fetchRecorded,
    }),
  };
}

/** Our model on node:http (no fetch), as the hosted OpenAI-compatible server is called. */
function overNode(baseURL: string): LanguageModelV3 {
  return withLightChatStream(sdkModel(baseURL, "llama3.1", API_KEY), {
    baseURL,
    apiKey: API_KEY,
    userAgent: `ai-sdk/openai-compatible/${VERSION}`,
    providerName: NAME,
  });
}

const chunk = (delta: object | null, extra: object = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1_750_000_000,
  model: "llama3.1",
  choices: delta === null ? [] : [{ index: 0, delta, finish_reason: null }],
  ...extra,
});
const finish = (reason: string) => ({
  ...chunk({}),
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
});
const usage = {
  prompt_tokens: 120,
  completion_tokens: 50,
  total_tokens: 170,
  prompt_tokens_details: { cached_tokens: 100 },
  completion_tokens_details: { reasoning_tokens: 30, accepted_prediction_tokens: 2 },
};

function sseBody(...chunks: (object | string)[]): string {
  return chunks.map((c) => `data: ${typeof c === "string" ? c : JSON.stringify(c)}\n\n`).join("");
}

const servers = useProviderServers(() => {
  sent = [];
});

describe("the request", () => {
  it.each([
    ["with a key", API_KEY],
    ["without a key", null],
  ])("is the SDK's, byte for byte, %s", async (_label, apiKey) => {
    const models = modelsFor(servers.fake.baseUrls.openaiCompatible, "llama3.1", apiKey);
    for (const [promptName, prompt] of Object.entries(TEXT_PROMPTS)) {
      for (const [settingsName, extra] of Object.entries(TEXT_SETTINGS)) {
        const label = `${promptName}, ${settingsName}`;
        const { sdkParts, ourParts } = await sameRequest(models, { prompt, ...extra }, sent, label);
        expect(ourParts, label).toEqual(sdkParts);
      }
    }
    expect(JSON.parse(sent[0]?.body ?? "{}")).toMatchObject({
      model: "llama3.1",
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(sent[0]?.headers.authorization).toBe(apiKey ? `Bearer ${apiKey}` : undefined);
  });

  it("goes through the SDK's model for calls the reader does not handle", async () => {
    await expectLeftToSdk(
      modelsFor(servers.fake.baseUrls.openaiCompatible).ours,
      [{ openaiCompatible: { user: "u1" } }, { "openai-compatible": { user: "u1" } }],
      sent,
    );
  });
});

describe("the stream parts", () => {
  const prompt = [user("Hello")];

  async function bothParts(baseURL: string) {
    const { sdk, ours } = modelsFor(baseURL);
    const fromSdk = await partsOf(sdk, { prompt });
    const fromUs = await partsOf(ours, { prompt });
    return { fromSdk, fromUs };
  }

  it("are the SDK's for the fake provider's answer, with and without usage", async () => {
    for (const reply of [
      { text: "The plan has three steps: research, build, ship." },
      { text: "No counts from this server.", omitUsage: true },
    ]) {
      servers.fake.next(reply, reply);
      const { fromSdk, fromUs } = await bothParts(servers.fake.baseUrls.openaiCompatible);
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.filter((p) => p.type === "text-delta").length).toBeGreaterThan(3);
      expect(fromUs.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
    }
  });

  it("are the SDK's for reasoning, thinking parts and usage details, split mid-character", async () => {
    servers.scripted.pieceBytes = 3;
    servers.scripted.body = sseBody(
      chunk({ role: "assistant", content: "" }),
      chunk({ reasoning_content: "Think… " }),
      chunk({ reasoning: "more 🙂" }),
      chunk({ content: "Answer: " }),
      chunk({
        content: [
          { type: "thinking", thinking: [{ type: "text", text: "hmm" }] },
          { type: "text", text: "forty-two" },
          { type: "image", url: "ignored" },
        ],
      }),
      finish("length"),
      chunk(null, { usage }),
      "[DONE]",
    );
    try {
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.map((p) => p.type)).toContain("reasoning-end");
      expect(fromUs.at(-1)).toMatchObject({
        finishReason: { unified: "length", raw: "length" },
        usage: { inputTokens: { total: 120, cacheRead: 100 }, outputTokens: { reasoning: 30 } },
        providerMetadata: { [NAME]: { acceptedPredictionTokens: 2 } },
      });
    } finally {
      servers.scripted.pieceBytes = 7;
    }
  });

  it("are the SDK's with CRLF lines, comments, a chunk without id and other finish reasons", async () => {
    for (const reason of ["content_filter", "tool_calls", "eos"]) {
      const body = sseBody({ choices: [{ delta: { content: "Hi" } }] }, finish(reason));
      servers.scripted.body = `: keep-alive\r\n\r\n${body.replaceAll("\n", "\r\n")}data: [DONE]\r\n\r\n`;
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.at(-1)).toMatchObject({ finishReason: { raw: reason } });
    }
  });

  it("are the SDK's when the stream ends without a finish reason", async () => {
    servers.scripted.body = sseBody(chunk({ content: "Cut" }));
    const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
    expect(comparableParts(fromUs)).toEqual(comparableParts(fromSdk));
    expect(fromUs.at(-2)).toMatchObject({ type: "error" });
    expect(fromUs.at(-1)).toMatchObject({ finishReason: { unified: "error" } });
  });

  it("are the SDK's for an error chunk after output", async () => {
    for (const failure of [
      { error: { message: "The server had an error", type: "server_error", code: 500, x: 1 } },
      { ...chunk({}), error: { message: "Inside a chunk" } },
    ]) {
      servers.scripted.body = sseBody(chunk({ content: "Partial" }), failure);
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.find((p) => p.type === "error")).toBeDefined();
    }
  });

  it("report malformed chunks as the SDK does, and read on", async () => {
    for (const bad of [
      "{not json",
      JSON.stringify({ id: 7, choices: [] }),
      JSON.stringify({ choices: [{ delta: { role: "user" } }] }),
      JSON.stringify({ choices: [], usage: { prompt_tokens: "many" } }),
      JSON.stringify({ type: "response.output_text.delta", delta: "Responses?" }),
    ]) {
      servers.scripted.body = sseBody(chunk({ content: "Hi" }), bad, chunk({ content: " there" }));
      servers.scripted.body += sseBody(finish("stop"));
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(comparableParts(fromUs), bad).toEqual(comparableParts(fromSdk));
      expect(fromUs.some((p) => p.type === "error")).toBe(true);
    }
  });
});

describe("failures", () => {
  const prompt = [user("Hello")];

  it.each(httpFailureReplies("Incorrect API key provided", "Invalid value for 'messages'"))(
    "an HTTP $status is the SDK's APICallError",
    async (reply) => {
      await expectSameHttpFailure(
        servers.fake,
        modelsFor(servers.fake.baseUrls.openaiCompatible),
        prompt,
        reply,
        NAME,
      );
    },
  );

  it("an HTTP failure without an error body is the SDK's APICallError", async () => {
    await expectSameFailureWithoutErrorBody(
      servers.scripted,
      modelsFor(servers.scripted.url),
      prompt,
      NAME,
    );
  });

  it("a body cut mid-stream fails as the SDK's does", async () => {
    await expectSameFailureOnCutBody(
      servers.fake,
      modelsFor(servers.fake.baseUrls.openaiCompatible),
      prompt,
      NAME,
    );
  });

  it("a server that refuses the connection is a retryable APICallError, as the SDK's", async () => {
    const baseURL = await refusedBaseUrl();
    const fromSdk = callErrorFields(await failureOf(modelsFor(baseURL).sdk.doStream({ prompt })));
    const fromUs = callErrorFields(await failureOf(overNode(baseURL).doStream({ prompt })));
    for (const error of [fromSdk, fromUs]) {
      expect(error).toMatchObject({ isRetryable: true, statusCode: undefined });
      expect(error.message).toMatch(/^Cannot connect to API: .*ECONNREFUSED/);
      expect(error.failure).toMatchObject({ kind: "network", retryable: true });
    }
  });
});

describe("on node:http, as the hosted OpenAI-compatible server is called", () => {
  const prompt = [user("Hello")];

  it("streams what the SDK's model streams, and stops when the call is aborted", async () => {
    const answer = { text: "One two three four five" };
    servers.fake.next(answer, answer);
    const { sdk } = modelsFor(servers.fake.baseUrls.openaiCompatible);
    const fromSdk = await partsOf(sdk, { prompt });
    const fromUs = await partsOf(overNode(servers.fake.baseUrls.openaiCompatible), { prompt });
    const { id: _a, ...sdkStart } = fromSdk.find((p) => p.type === "response-metadata") ?? {};
    expect(fromUs.filter((p) => p.type !== "response-metadata")).toEqual(
      fromSdk.filter((p) => p.type !== "response-metadata"),
    );
    expect(fromUs.find((p) => p.type === "response-metadata")).toMatchObject(sdkStart);

    servers.fake.next({
      text: Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "),
      chunkDelayMs: 20,
    });
    const error = await abortAfterFirstText(
      overNode(servers.fake.baseUrls.openaiCompatible),
      prompt,
    );
    expect((error as Error).name).toBe("AbortError");
    expect(await servers.fake.requests.at(-1)?.closed).toEqual({ early: true });
  });
});

describe("the providers seam", () => {
  const prompt = [user("Hello")];

  it("streams OpenAI-compatible text through our reader, with the SDK's headers", async () => {
    const providers = createProviders({
      openai: { apiKey: undefined, baseUrl: servers.fake.baseUrls.openai, api: "responses" },
      anthropic: { apiKey: undefined, baseUrl: servers.fake.baseUrls.anthropic },
      google: { apiKey: undefined, baseUrl: servers.fake.baseUrls.google },
      openaiCompatible: {
        baseUrl: servers.fake.baseUrls.openaiCompatible,
        apiKey: "sk-hosted",
        models: ["llama3.1"],
      },
    });
    const model = providers.languageModel("openai-compatible", "llama3.1");
    if (!model) throw new Error("no OpenAI-compatible model");
    // A hosted key's model is made once and shared by every call; a user's key makes its own.
    expect(providers.languageModel("openai-compatible", "llama3.1")).toBe(model);
    expect(providers.languageModel("openai-compatible", "qwen")).not.toBe(model);
    const userCredential = { apiKey: "k", baseURL: servers.fake.baseUrls.openaiCompatible, fetch };
    expect(providers.languageModel("openai-compatible", "llama3.1", userCredential)).not.toBe(
      providers.languageModel("openai-compatible", "llama3.1", userCredential),
    );
    const parts = await partsOf(model, { prompt });
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
    const [request] = servers.fake.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-hosted");
    expect(request?.headers["user-agent"]).toBe(
      `ai-sdk/openai-compatible/${VERSION} ${SDK_RUNTIME}`,
    );
  });
});

import { createOpenAI, VERSION } from "@ai-sdk/openai";
import {
  APICallError,
  type JSONSchema7,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
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
  failuresOf,
  httpFailureReplies,
  partsOf,
  readToFirstText,
  recordingFetch,
  refusedBaseUrl,
  SDK_HTTP_LAYER,
  SDK_RUNTIME,
  type SentRequest,
  sameRequest,
  TEXT_PROMPTS,
  TEXT_SETTINGS,
  useProviderServers,
  user,
} from "../../../test/support/provider-streams";
import { classifyFailure } from "./call-failures";
import { withLightTextStream } from "./openai-responses-stream";
import { createProviders, type ProviderSettings } from "./providers";

/**
 * Our reader against the SDK's own Responses model, on the same servers: what goes on the wire,
 * the stream parts that come back and the errors must be the same.
 */

const API_KEY = "sk-test";
let sent: SentRequest[] = [];
const fetchRecorded: typeof globalThis.fetch = (input, init) => recordingFetch(sent)(input, init);

function modelsFor(
  baseURL: string,
  modelId: string,
): { sdk: LanguageModelV3; ours: LanguageModelV3 } {
  const provider = () => createOpenAI({ apiKey: API_KEY, baseURL, fetch: fetchRecorded });
  return {
    sdk: provider().responses(modelId),
    ours: withLightTextStream(provider().responses(modelId), {
      baseURL,
      apiKey: API_KEY,
      userAgent: `ai-sdk/openai/${VERSION}`,
      fetch: fetchRecorded,
    }),
  };
}

function sseBody(...events: object[]): string {
  return events
    .map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
    .join("");
}

const created = (model: string) => ({
  type: "response.created",
  sequence_number: 0,
  response: {
    id: "resp_1",
    object: "response",
    created_at: 1_750_000_000,
    model,
    status: "in_progress",
    output: [],
  },
});
const inProgress = { type: "response.in_progress", sequence_number: 1, response: { id: "resp_1" } };
const messageAdded = {
  type: "response.output_item.added",
  sequence_number: 4,
  output_index: 1,
  item: { id: "msg_1", type: "message", status: "in_progress", role: "assistant", content: [] },
};
const delta = (text: string, n: number) => ({
  type: "response.output_text.delta",
  sequence_number: 5 + n,
  item_id: "msg_1",
  output_index: 1,
  content_index: 0,
  delta: text,
  logprobs: [],
});
const messageDone = {
  type: "response.output_item.done",
  sequence_number: 20,
  output_index: 1,
  item: { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [] },
};
const usage = {
  input_tokens: 120,
  input_tokens_details: { cached_tokens: 100 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 170,
};
const completed = (response: object = {}) => ({
  type: "response.completed",
  sequence_number: 21,
  response: { id: "resp_1", status: "completed", usage, service_tier: "default", ...response },
});

const servers = useProviderServers(() => {
  sent = [];
});

/** A Responses `error` event of the stream, at `seq`. */
const errorEvent = (seq: number, code: string, message: string) => ({
  type: "error",
  sequence_number: seq,
  code,
  message,
  param: null,
});

describe("the request", () => {
  const modelIds = [
    "gpt-4.1",
    "gpt-4o-mini",
    "o3",
    "o4-mini",
    "gpt-5",
    "gpt-5.1",
    "gpt-5-chat-latest",
  ];

  it.each(modelIds)("is the SDK's, byte for byte, for %s", async (modelId) => {
    const models = modelsFor(servers.fake.baseUrls.openai, modelId);
    for (const [promptName, prompt] of Object.entries(TEXT_PROMPTS)) {
      for (const [settingsName, extra] of Object.entries(TEXT_SETTINGS)) {
        const label = `${modelId}, ${promptName}, ${settingsName}`;
        const { sdkParts, ourParts } = await sameRequest(models, { prompt, ...extra }, sent, label);
        // The warnings (temperature dropped for reasoning models) come in stream-start.
        expect(ourParts[0], label).toEqual(sdkParts[0]);
      }
    }
    expect(JSON.parse(sent[0]?.body ?? "{}")).toMatchObject({ model: modelId, stream: true });
  });

  it("goes through the SDK's model for calls the reader does not handle", async () => {
    await expectLeftToSdk(
      modelsFor(servers.fake.baseUrls.openai, "gpt-4.1").ours,
      [{ openai: { store: false } }],
      sent,
      true,
      true,
    );
  });

  // An agent's turn offers its tools (decision 095): function tools go out as the SDK's
  // `tools` and `tool_choice`, on this reader.
  const TOOLS: LanguageModelV3CallOptions["tools"] = [
    {
      type: "function",
      name: "search_documents",
      description: "Searches the session's documents.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" } },
        required: ["query"],
        additionalProperties: false,
        $schema: "http://json-schema.org/draft-07/schema#",
      },
    },
    { type: "function", name: "read_url", inputSchema: { type: "object" }, strict: true },
    { type: "function", name: "run_code", inputSchema: { type: "object" }, strict: false },
  ];
  const CHOICES: Record<string, LanguageModelV3CallOptions["toolChoice"]> = {
    "no choice": undefined,
    auto: { type: "auto" },
    none: { type: "none" },
    required: { type: "required" },
    "one tool": { type: "tool", toolName: "read_url" },
  };

  it.each(["gpt-4.1", "o3", "gpt-5"])(
    "with function tools is the SDK's, byte for byte, with its parts, for %s",
    async (modelId) => {
      const models = modelsFor(servers.fake.baseUrls.openai, modelId);
      for (const [choiceName, toolChoice] of Object.entries(CHOICES)) {
        const label = `${modelId}, ${choiceName}`;
        const { sdkParts, ourParts } = await sameRequest(
          models,
          {
            prompt: TEXT_PROMPTS["system, history and user"] ?? [],
            tools: TOOLS,
            toolChoice,
            ...TEXT_SETTINGS["max tokens and temperature"],
          },
          sent,
          label,
        );
        expect(comparableParts(ourParts), label).toEqual(comparableParts(sdkParts));
      }
      const body = JSON.parse(sent.at(-1)?.body ?? "{}") as { tools?: object[] };
      expect(body.tools).toHaveLength(3);
      // No tools offered is no `tools` field, whatever the choice says.
      const { ourParts } = await sameRequest(
        models,
        { prompt: [user("Hello")], tools: [], toolChoice: { type: "required" } },
        sent,
        `${modelId}, empty tools`,
      );
      expect(ourParts.at(-1)?.type).toBe("finish");
      expect(JSON.parse(sent.at(-1)?.body ?? "{}")).not.toHaveProperty("tools");
    },
  );

  it("leaves a choice of a built-in tool's name to the SDK, which sends it as that tool", async () => {
    const { ours } = modelsFor(servers.fake.baseUrls.openai, "gpt-4.1");
    await partsOf(ours, {
      prompt: [user("Hello")],
      tools: [{ type: "function", name: "web_search", inputSchema: { type: "object" } }],
      toolChoice: { type: "tool", toolName: "web_search" },
    });
    expect(sent.at(-1)?.headers["user-agent"]).toMatch(SDK_HTTP_LAYER);
    expect(JSON.parse(sent.at(-1)?.body ?? "{}")).toMatchObject({
      tool_choice: { type: "web_search" },
    });
  });

  // The plan's structured answer (decision 090): its JSON schema goes out as the SDK's
  // `text.format`, on this reader, and the JSON comes back as the SDK's stream parts.
  it.each(["gpt-4.1", "o3", "gpt-5"])(
    "with a JSON schema is the SDK's, byte for byte, with its parts, for %s",
    async (modelId) => {
      const models = modelsFor(servers.fake.baseUrls.openai, modelId);
      const schema: JSONSchema7 = {
        type: "object",
        properties: {
          rationale: { type: "string" },
          steps: {
            type: "array",
            items: {
              type: "object",
              properties: { id: { type: "string" }, dependsOn: { type: "array", items: {} } },
              required: ["id", "dependsOn"],
              additionalProperties: false,
            },
          },
        },
        required: ["rationale", "steps"],
        additionalProperties: false,
        $schema: "http://json-schema.org/draft-07/schema#",
      };
      const formats: Record<string, LanguageModelV3CallOptions["responseFormat"]> = {
        "named and described": {
          type: "json",
          schema,
          name: "run_plan",
          description: "Who does what.",
        },
        unnamed: { type: "json", schema },
      };
      for (const [formatName, responseFormat] of Object.entries(formats)) {
        const label = `${modelId}, ${formatName}`;
        const { sdkParts, ourParts } = await sameRequest(
          models,
          {
            prompt: TEXT_PROMPTS["system, history and user"] ?? [],
            responseFormat,
            ...TEXT_SETTINGS["max tokens and temperature"],
          },
          sent,
          label,
        );
        expect(comparableParts(ourParts), label).toEqual(comparableParts(sdkParts));
        expect(
          ourParts.some((p) => p.type === "text-delta"),
          label,
        ).toBe(true);
      }
      const body = JSON.parse(sent.at(-1)?.body ?? "{}") as { text?: { format?: object } };
      expect(body.text?.format).toMatchObject({ type: "json_schema", strict: true, schema });
    },
  );
});

describe("the stream parts", () => {
  const prompt = [user("Hello")];

  async function bothParts(baseURL: string, modelId = "gpt-4.1") {
    const { sdk, ours } = modelsFor(baseURL, modelId);
    const fromSdk = await partsOf(sdk, { prompt });
    const fromUs = await partsOf(ours, { prompt });
    return { fromSdk, fromUs };
  }

  it("are the SDK's for the fake provider's answer", async () => {
    servers.fake.defaultReply = { text: "The plan has three steps: research, build, ship." };
    const { fromSdk, fromUs } = await bothParts(servers.fake.baseUrls.openai);
    expect(fromUs).toEqual(fromSdk);
    expect(fromUs.filter((p) => p.type === "text-delta")).toHaveLength(8);
  });

  it("are the SDK's for a reasoning model's answer, split across reads mid-character", async () => {
    servers.scripted.body = sseBody(
      created("o3"),
      inProgress,
      {
        type: "response.output_item.added",
        sequence_number: 2,
        output_index: 0,
        item: { id: "rs_1", type: "reasoning", summary: [], encrypted_content: null },
      },
      {
        type: "response.output_item.done",
        sequence_number: 3,
        output_index: 0,
        item: { id: "rs_1", type: "reasoning", summary: [] },
      },
      messageAdded,
      { type: "response.content_part.added", sequence_number: 5, item_id: "msg_1", part: {} },
      delta("Déjà vu: ", 1),
      delta("漢字 and 🙂", 2),
      { type: "response.output_text.done", sequence_number: 9, item_id: "msg_1", text: "…" },
      messageDone,
      completed({ reasoning: { context: "ctx_1" } }),
    );
    const { fromSdk, fromUs } = await bothParts(servers.scripted.url, "o3");
    expect(fromUs).toEqual(fromSdk);
    expect(fromUs.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("")).toBe(
      "Déjà vu: 漢字 and 🙂",
    );
    expect(fromUs.at(-1)).toMatchObject({
      type: "finish",
      finishReason: { unified: "stop" },
      usage: {
        inputTokens: { total: 120, noCache: 20, cacheRead: 100 },
        outputTokens: { total: 50, text: 20, reasoning: 30 },
      },
    });
  });

  it("are the SDK's for an answer cut at max_output_tokens", async () => {
    servers.scripted.body = sseBody(
      created("gpt-4.1"),
      messageAdded,
      delta("Half an", 1),
      messageDone,
      {
        ...completed({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }),
        type: "response.incomplete",
      },
    );
    const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
    expect(fromUs).toEqual(fromSdk);
    expect(fromUs.at(-1)).toMatchObject({
      finishReason: { unified: "length", raw: "max_output_tokens" },
    });
  });

  describe("with tools offered (decision 095)", () => {
    const tools: LanguageModelV3CallOptions["tools"] = [
      { type: "function", name: "search_documents", inputSchema: { type: "object" } },
      { type: "function", name: "read_url", inputSchema: { type: "object" } },
    ];
    const callAdded = (index: number, id: string, name: string, extra: object = {}) => ({
      type: "response.output_item.added",
      sequence_number: 10 + index,
      output_index: index,
      item: {
        id: `fc_${id}`,
        type: "function_call",
        status: "in_progress",
        call_id: `call_${id}`,
        name,
        arguments: "",
        ...extra,
      },
    });
    const argsDelta = (index: number, id: string, text: string) => ({
      type: "response.function_call_arguments.delta",
      sequence_number: 30 + index,
      item_id: `fc_${id}`,
      output_index: index,
      delta: text,
    });
    const argsDone = (index: number, id: string, args: string) => ({
      type: "response.function_call_arguments.done",
      sequence_number: 40 + index,
      item_id: `fc_${id}`,
      output_index: index,
      arguments: args,
    });
    const callDone = (index: number, id: string, name: string, args: string, extra = {}) => ({
      type: "response.output_item.done",
      sequence_number: 50 + index,
      output_index: index,
      item: {
        id: `fc_${id}`,
        type: "function_call",
        status: "completed",
        call_id: `call_${id}`,
        name,
        arguments: args,
        ...extra,
      },
    });

    async function bothWithTools(body: string) {
      servers.scripted.body = body;
      const { sdk, ours } = modelsFor(servers.scripted.url, "gpt-4.1");
      const fromSdk = await partsOf(sdk, { prompt, tools });
      const fromUs = await partsOf(ours, { prompt, tools });
      expect(sent.at(-1)?.headers["user-agent"]).not.toMatch(SDK_HTTP_LAYER);
      return { fromSdk, fromUs };
    }

    it("are the SDK's for a text answer and for two calls streamed side by side", async () => {
      const text = await bothWithTools(
        sseBody(
          created("gpt-4.1"),
          messageAdded,
          delta("No tool needed.", 1),
          messageDone,
          completed(),
        ),
      );
      expect(text.fromUs).toEqual(text.fromSdk);
      expect(text.fromUs.at(-1)).toMatchObject({ finishReason: { unified: "stop" } });

      const calls = await bothWithTools(
        sseBody(
          created("gpt-4.1"),
          callAdded(0, "a", "search_documents"),
          callAdded(1, "b", "read_url", { async: false }),
          argsDelta(0, "a", '{"query":'),
          argsDelta(1, "b", '{"url":"https://example.com/"}'),
          argsDelta(0, "a", '"late fines"}'),
          argsDone(0, "a", '{"query":"late fines"}'),
          callDone(0, "a", "search_documents", '{"query":"late fines"}'),
          callDone(1, "b", "read_url", '{"url":"https://example.com/"}', { namespace: "web" }),
          completed(),
        ),
      );
      expect(calls.fromUs).toEqual(calls.fromSdk);
      expect(calls.fromUs.filter((p) => p.type === "tool-call")).toMatchObject([
        { toolCallId: "call_a", toolName: "search_documents", input: '{"query":"late fines"}' },
        { toolCallId: "call_b", toolName: "read_url" },
      ]);
      expect(calls.fromUs.at(-1)).toMatchObject({ finishReason: { unified: "tool-calls" } });
    });

    it("are the SDK's for a call cut at max_output_tokens and one with no added event", async () => {
      const { fromSdk, fromUs } = await bothWithTools(
        sseBody(created("gpt-4.1"), callDone(0, "a", "search_documents", '{"query":"x"}'), {
          ...completed({
            status: "incomplete",
            incomplete_details: { reason: "max_output_tokens" },
          }),
          type: "response.incomplete",
        }),
      );
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.at(-1)).toMatchObject({ finishReason: { unified: "length" } });
    });

    it("are the SDK's for an undeclared `parallel` call, expanded or left whole", async () => {
      const uses = JSON.stringify({
        tool_uses: [
          { recipient_name: "functions.search_documents", parameters: { query: "a" } },
          { recipient_name: "functions.read_url", parameters: { url: "https://example.com/" } },
        ],
      });
      const cases = {
        expanded: [argsDelta(0, "p", uses.slice(0, 20)), argsDelta(0, "p", uses.slice(20))],
        "an unknown recipient": [
          argsDelta(0, "p", uses.replace("functions.read_url", "functions.x")),
        ],
        "not JSON": [argsDelta(0, "p", "{not json")],
        "a __proto__ key": [argsDelta(0, "p", '{"__proto__":{"tool_uses":[]}}')],
      };
      for (const [name, deltas] of Object.entries(cases)) {
        const args = deltas.map((d) => d.delta).join("");
        const { fromSdk, fromUs } = await bothWithTools(
          sseBody(
            created("gpt-4.1"),
            callAdded(0, "p", "parallel"),
            ...deltas,
            callDone(0, "p", "parallel", args),
            completed(),
          ),
        );
        expect(fromUs, name).toEqual(fromSdk);
      }
      // Arguments only in the done item are its one delta.
      const { fromSdk, fromUs } = await bothWithTools(
        sseBody(
          created("gpt-4.1"),
          callAdded(0, "p", "parallel"),
          callDone(0, "p", "parallel", uses),
          completed(),
        ),
      );
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.filter((p) => p.type === "tool-call").map((p) => p.toolName)).toEqual([
        "search_documents",
        "read_url",
      ]);
    });

    it("fail as the SDK's do for a malformed function call", async () => {
      for (const bad of [
        { ...callAdded(0, "a", "search_documents"), item: { type: "function_call", id: "fc_a" } },
        { ...argsDelta(0, "a", "x"), delta: 7 },
        {
          ...callDone(0, "a", "search_documents", "{}"),
          item: { ...callDone(0, "a", "search_documents", "{}").item, status: "done" },
        },
      ]) {
        const { fromSdk, fromUs } = await bothWithTools(
          sseBody(created("gpt-4.1"), callAdded(0, "a", "search_documents"), bad, completed()),
        );
        expect(comparableParts(fromUs)).toEqual(comparableParts(fromSdk));
        expect(fromUs.some((p) => p.type === "error")).toBe(true);
      }
    });
  });

  it("are the SDK's for a refusal, with CRLF lines, comments and [DONE]", async () => {
    servers.scripted.body = sseBody(
      created("gpt-4.1"),
      messageAdded,
      { type: "response.refusal.delta", sequence_number: 5, item_id: "msg_1", delta: "I can't" },
      { type: "response.refusal.done", sequence_number: 6, item_id: "msg_1", refusal: "I can't" },
      messageDone,
      completed(),
    );
    servers.scripted.body = `: keep-alive\r\n\r\n${servers.scripted.body.replaceAll("\n", "\r\n")}data: [DONE]\r\n\r\n`;
    const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
    expect(fromUs).toEqual(fromSdk);
    expect(fromUs.at(-1)).toMatchObject({ finishReason: { unified: "content-filter" } });
  });

  it("are the SDK's when an error event or a failed response comes after output", async () => {
    for (const failure of [
      errorEvent(7, "server_error", "The server had an error"),
      {
        type: "error",
        sequence_number: 7,
        error: {
          type: "rate_limit_exceeded",
          code: "rate_limit_exceeded",
          message: "Slow down",
          param: null,
        },
      },
      {
        type: "response.failed",
        sequence_number: 7,
        response: {
          id: "resp_1",
          status: "failed",
          error: { code: "server_error", message: "It broke" },
          usage: null,
        },
      },
    ]) {
      servers.scripted.body = sseBody(
        created("gpt-4.1"),
        messageAdded,
        delta("Partial", 1),
        failure,
      );
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.find((p) => p.type === "error")).toBeDefined();
      expect(fromUs.at(-1)).toMatchObject({ finishReason: { unified: "error" } });
    }
  });

  it("report malformed events as the SDK does, and read on", async () => {
    for (const bad of [
      "data: {not json\n\n",
      `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", choices: [] })}\n\n`,
      `data: ${JSON.stringify({ type: "response.output_text.delta", item_id: "msg_1" })}\n\n`,
    ]) {
      servers.scripted.body = sseBody(created("gpt-4.1"), messageAdded, delta("Hi", 1));
      servers.scripted.body += bad + sseBody(delta(" there", 2), messageDone, completed());
      const { fromSdk, fromUs } = await bothParts(servers.scripted.url);
      expect(comparableParts(fromUs)).toEqual(comparableParts(fromSdk));
      expect(fromUs.some((p) => p.type === "error")).toBe(true);
    }
  });
});

describe("failures", () => {
  const prompt = [user("Hello")];

  it.each(httpFailureReplies("Incorrect API key provided: sk-tes***", "Invalid value for 'input'"))(
    "an HTTP $status is the SDK's APICallError",
    async (reply) => {
      await expectSameHttpFailure(
        servers.fake,
        modelsFor(servers.fake.baseUrls.openai, "gpt-4.1"),
        prompt,
        reply,
      );
      expect(sent[1]?.headers["user-agent"]).not.toMatch(SDK_HTTP_LAYER);
    },
  );

  it("an HTTP failure without an OpenAI error body is the SDK's APICallError", async () => {
    await expectSameFailureWithoutErrorBody(
      servers.scripted,
      modelsFor(servers.scripted.url, "gpt-4.1"),
      prompt,
    );
  });

  it("an error event before any output is thrown as the SDK's APICallError", async () => {
    for (const failure of [
      errorEvent(2, "rate_limit_exceeded", "Rate limit reached"),
      errorEvent(2, "insufficient_quota", "No quota"),
      {
        type: "response.failed",
        sequence_number: 2,
        response: {
          id: "resp_1",
          status: "failed",
          error: { code: "server_error", message: "It broke" },
        },
      },
    ]) {
      servers.scripted.body = sseBody(created("gpt-4.1"), inProgress, failure);
      const { fromSdk, fromUs } = await failuresOf(
        modelsFor(servers.scripted.url, "gpt-4.1"),
        (model) => model.doStream({ prompt }),
      );
      // The SDK's responseBody and data are the event after its schema dropped unknown keys.
      const { responseBody: _a, data: _b, ...ourFields } = fromUs;
      const { responseBody: _c, data: _d, ...sdkFields } = fromSdk;
      expect(ourFields).toEqual(sdkFields);
    }
  });

  it("a body cut mid-stream fails as the SDK's does", async () => {
    await expectSameFailureOnCutBody(
      servers.fake,
      modelsFor(servers.fake.baseUrls.openai, "gpt-4.1"),
      prompt,
    );
  });
});

describe("the providers seam", () => {
  const settings = (api: "responses" | "chat"): ProviderSettings => ({
    openai: { apiKey: "sk-hosted", baseUrl: servers.fake.baseUrls.openai, api },
    anthropic: { apiKey: undefined, baseUrl: servers.fake.baseUrls.anthropic },
    google: { apiKey: undefined, baseUrl: servers.fake.baseUrls.google },
    openaiCompatible: { baseUrl: undefined, apiKey: undefined, models: [] },
  });
  const prompt = [user("Hello")];
  const openaiModel = (api: "responses" | "chat") => {
    const model = createProviders(settings(api)).languageModel("openai", "gpt-4.1");
    if (!model) throw new Error("no OpenAI model with a hosted key");
    return model;
  };

  it("streams OpenAI Responses text through our reader, with the SDK's headers", async () => {
    await partsOf(openaiModel("responses"), { prompt });
    const [request] = servers.fake.requests;
    expect(request?.path).toBe("/v1/responses");
    expect(request?.headers.authorization).toBe("Bearer sk-hosted");
    expect(request?.headers["user-agent"]).toBe(`ai-sdk/openai/${VERSION} ${SDK_RUNTIME}`);
  });

  it("leaves Chat Completions to the SDK", async () => {
    await partsOf(openaiModel("chat"), { prompt });
    expect(servers.fake.requests[0]?.path).toBe("/v1/chat/completions");
    expect(servers.fake.requests[0]?.headers["user-agent"]).toMatch(SDK_HTTP_LAYER);
  });
});

/** Our model on the fake provider, with the tests' recording fetch or on node:http (no fetch). */
function oursOver(transport: "fetch" | "node:http"): LanguageModelV3 {
  const baseURL = servers.fake.baseUrls.openai;
  return transport === "fetch"
    ? modelsFor(baseURL, "gpt-4.1").ours
    : withLightTextStream(createOpenAI({ apiKey: API_KEY, baseURL }).responses("gpt-4.1"), {
        baseURL,
        apiKey: API_KEY,
        userAgent: `ai-sdk/openai/${VERSION}`,
      });
}

describe.each(["fetch", "node:http"] as const)("stopping (%s)", (transport) => {
  const prompt = [user("Hello")];
  const slow = { text: Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 20 };

  it("the call's abort signal stops the read and closes the connection", async () => {
    servers.fake.next(slow);
    const error = await abortAfterFirstText(oursOver(transport), prompt);
    expect((error as Error).name).toBe("AbortError");
    expect(await servers.fake.requests[0]?.closed).toEqual({ early: true });
  });

  it("a consumer that stops reading closes the connection", async () => {
    servers.fake.next(slow);
    const { stream } = await oursOver(transport).doStream({ prompt });
    const reader = await readToFirstText(stream);
    await reader.cancel();
    expect(await servers.fake.requests[0]?.closed).toEqual({ early: true });
  });
});

describe("without a fetch: node:http on kept-alive connections", () => {
  const prompt = [user("Hello")];
  const overNode = (baseURL: string) =>
    baseURL === servers.fake.baseUrls.openai
      ? oursOver("node:http")
      : withLightTextStream(createOpenAI({ apiKey: API_KEY, baseURL }).responses("gpt-4.1"), {
          baseURL,
          apiKey: API_KEY,
          userAgent: `ai-sdk/openai/${VERSION}`,
        });
  const textOf = (parts: LanguageModelV3StreamPart[]) =>
    parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");
  const finishOf = (parts: LanguageModelV3StreamPart[]) => parts.find((p) => p.type === "finish");

  it("streams what the SDK's model streams, on kept-alive connections", async () => {
    const answer = { text: "One two three four five" };
    servers.fake.next(answer, answer, answer);
    const { sdk } = modelsFor(servers.fake.baseUrls.openai, "gpt-4.1");
    const fromSdk = await partsOf(sdk, { prompt });
    const ours = overNode(servers.fake.baseUrls.openai);
    const first = await partsOf(ours, { prompt });
    const second = await partsOf(ours, { prompt });
    for (const parts of [first, second]) {
      expect(textOf(parts)).toBe(textOf(fromSdk));
      expect(finishOf(parts)).toEqual(finishOf(fromSdk));
    }
    expect(servers.fake.requests[1]?.headers["content-length"]).toBe(
      String(Buffer.byteLength(JSON.stringify(servers.fake.requests[1]?.body))),
    );
    expect(servers.fake.requests[2]?.headers.connection).toBe("keep-alive");
  });

  it("an HTTP 429 carries its status, message and Retry-After, as the SDK's", async () => {
    const reply = { status: 429, headers: { "retry-after": "7" }, errorMessage: "Slow down" };
    servers.fake.next(reply, reply);
    const { sdk } = modelsFor(servers.fake.baseUrls.openai, "gpt-4.1");
    const fromSdk = callErrorFields(await failureOf(sdk.doStream({ prompt })));
    const fromUs = callErrorFields(
      await failureOf(overNode(servers.fake.baseUrls.openai).doStream({ prompt })),
    );
    const { responseHeaders: _a, ...sdkRest } = fromSdk;
    const { responseHeaders, ...ourRest } = fromUs;
    expect(ourRest).toEqual(sdkRest);
    expect(responseHeaders["retry-after"]).toBe("7");
    expect(fromUs.failure).toMatchObject({ kind: "rate_limited", retryAfterMs: 7000 });
  });

  it("a provider that refuses the connection is a retryable APICallError, as the SDK's", async () => {
    const baseURL = await refusedBaseUrl();
    const { sdk } = modelsFor(baseURL, "gpt-4.1");
    for (const error of [
      await failureOf(sdk.doStream({ prompt })),
      await failureOf(overNode(baseURL).doStream({ prompt })),
    ]) {
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ isRetryable: true, statusCode: undefined });
      expect((error as Error).message).toMatch(/^Cannot connect to API: .*ECONNREFUSED/);
      expect(
        classifyFailure(
          error,
          { provider: "openai", providerModel: "gpt-4.1", keySource: "hosted" },
          { timedOut: false, deltasSeen: false, timeoutMs: 1000 },
        ),
      ).toMatchObject({ kind: "network", retryable: true });
    }
  });
});

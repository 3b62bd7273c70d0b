import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import {
  APICallError,
  type JSONSchema7,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import type { TProviderId } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { classifyFailure } from "../../src/modules/models/call-failures";
import { FakeProviderServer } from "./fake-provider/fake-provider-server";

/**
 * What the tests of our own stream readers share: each sends the same calls to the SDK's model
 * and to ours, on the same servers, and compares what went on the wire and what came back.
 * The SDK's user-agent names its HTTP layer (`ai-sdk/provider-utils/…`), ours does not: that
 * is how a test tells which of the two sent a request.
 */

export const SDK_HTTP_LAYER = /\s*ai-sdk\/provider-utils\/\S+/;

const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
/**
 * The runtime the AI SDK names in its user-agent: Node 21 and later have `navigator.userAgent`
 * ("Node.js/24"), which the SDK prefers; Node 20 has only its version ("v20.20.2").
 */
export const SDK_RUNTIME =
  NODE_MAJOR >= 21 ? `runtime/node.js/${NODE_MAJOR}` : `runtime/node.js/${process.version}`;

export interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that records each request as sent into `sent`, then sends it. */
export function recordingFetch(sent: SentRequest[]): typeof globalThis.fetch {
  return async (input, init) => {
    sent.push({
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: String(init?.body),
    });
    return globalThis.fetch(input, init);
  };
}

export async function partsOf(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
): Promise<LanguageModelV3StreamPart[]> {
  const { stream } = await model.doStream(options);
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

export async function failureOf(promise: PromiseLike<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

/** The fields of an APICallError a caller reads; `date` differs between two requests. */
export function callErrorFields(error: unknown, provider: TProviderId = "openai") {
  expect(APICallError.isInstance(error)).toBe(true);
  const e = error as APICallError;
  const { date: _date, ...responseHeaders } = e.responseHeaders ?? {};
  return {
    name: e.name,
    message: e.message,
    statusCode: e.statusCode,
    isRetryable: e.isRetryable,
    url: e.url,
    requestBodyValues: e.requestBodyValues,
    responseHeaders,
    responseBody: e.responseBody,
    data: e.data,
    failure: classifyFailure(
      error,
      { provider, providerModel: "gpt-4.1", keySource: "hosted" },
      { timedOut: false, deltasSeen: false, timeoutMs: 1000 },
    ),
  };
}

/** The same failing call made through the SDK's model, then ours: each error's fields. */
export async function failuresOf(
  models: { sdk: LanguageModelV3; ours: LanguageModelV3 },
  call: (model: LanguageModelV3) => PromiseLike<unknown>,
  provider?: TProviderId,
) {
  const fromSdk = callErrorFields(await failureOf(call(models.sdk)), provider);
  const fromUs = callErrorFields(await failureOf(call(models.ours)), provider);
  return { fromSdk, fromUs };
}

/** A base URL on a port nothing listens on: connections to it are refused. */
export async function refusedBaseUrl(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

/** Error parts compared by their error's name: messages quote each parser's own words. */
export const comparableParts = (parts: LanguageModelV3StreamPart[]) =>
  parts.map((p) => (p.type === "error" ? { type: "error", name: (p.error as Error).name } : p));

export const user = (text: string) => ({
  role: "user" as const,
  content: [{ type: "text" as const, text }],
});
export const assistant = (text: string) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text }],
});

/** A server that answers every request with the body the test scripts, in small byte pieces. */
export class ScriptedServer {
  status = 200;
  headers: Record<string, string> = { "content-type": "text/event-stream" };
  body = "";
  /** Bytes per write: small pieces split events, lines and UTF-8 characters across reads. */
  pieceBytes = 7;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedServer> {
    let scripted: ScriptedServer | undefined;
    const server = createServer(async (req, res) => {
      for await (const _ of req) {
        // The request body is read by the recording fetch.
      }
      const self = scripted as ScriptedServer;
      res.writeHead(self.status, self.headers);
      const bytes = Buffer.from(self.body, "utf8");
      for (let at = 0; at < bytes.length; at += self.pieceBytes) {
        res.write(bytes.subarray(at, at + self.pieceBytes));
        await yieldToLoop();
      }
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    scripted = new ScriptedServer(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    );
    return scripted;
  }

  /** Answers with `status` and `body` (and these headers) within `fn`, then streams again. */
  async failing<T>(
    status: number,
    headers: Record<string, string>,
    body: string,
    fn: () => Promise<T>,
  ): Promise<T> {
    this.status = status;
    this.headers = headers;
    this.body = body;
    try {
      return await fn();
    } finally {
      this.status = 200;
      this.headers = { "content-type": "text/event-stream" };
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The text prompts each reader's request is compared on. */
export const TEXT_PROMPTS: Record<string, LanguageModelV3Prompt> = {
  "one user message": [user("Hello")],
  "system, history and user": [
    { role: "system", content: "You are the Strategist." },
    user("Plan a launch"),
    assistant("Step one: décide the date 🙂"),
    user("And then?"),
  ],
  "two system messages, a user message and an answer in two parts each": [
    { role: "system", content: "Be brief." },
    { role: "system", content: "Answer in English." },
    { role: "user", content: [...user("Hi").content, ...user("there").content] },
    { role: "assistant", content: [...assistant("a").content, ...assistant("b").content] },
    user("Go on"),
  ],
};

/** The call settings each reader handles itself. */
export const TEXT_SETTINGS: Record<string, Partial<LanguageModelV3CallOptions>> = {
  "no settings": {},
  "max tokens and temperature": { maxOutputTokens: 512, temperature: 0.7 },
  "temperature 0 only": { temperature: 0 },
  "other providers' options": { providerOptions: { simulator: { persona: "coder" } } },
};

async function streamed(model: LanguageModelV3, options: LanguageModelV3CallOptions) {
  const result: LanguageModelV3StreamResult = await model.doStream(options);
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of result.stream) parts.push(part);
  return { result, parts };
}

/**
 * The same call through the SDK's model and ours, one after the other: checks that ours sent
 * the SDK's URL, body (byte for byte) and headers (but for the SDK's HTTP layer in the
 * user-agent), and gave the same request record; returns both streams' parts.
 */
export async function sameRequest(
  models: { sdk: LanguageModelV3; ours: LanguageModelV3 },
  options: LanguageModelV3CallOptions,
  sent: SentRequest[],
  label: string,
) {
  const before = sent.length;
  const fromSdk = await streamed(models.sdk, options);
  const fromUs = await streamed(models.ours, options);
  const [sdkRequest, ourRequest] = sent.slice(before);
  expect(ourRequest?.body, label).toBe(sdkRequest?.body);
  expect(ourRequest?.url, label).toBe(sdkRequest?.url);
  expect(ourRequest?.headers["user-agent"], label).not.toMatch(SDK_HTTP_LAYER);
  expect(ourRequest?.headers, label).toEqual({
    ...sdkRequest?.headers,
    "user-agent": sdkRequest?.headers["user-agent"]?.replace(SDK_HTTP_LAYER, ""),
  });
  expect(fromUs.result.request, label).toEqual(fromSdk.result.request);
  return { sdkParts: fromSdk.parts, ourParts: fromUs.parts };
}

/** The fake provider and a scripted server for a test file, reset before each test. */
export function useProviderServers(reset: () => void): {
  fake: FakeProviderServer;
  scripted: ScriptedServer;
} {
  const servers = {} as { fake: FakeProviderServer; scripted: ScriptedServer };
  beforeAll(async () => {
    servers.fake = await FakeProviderServer.start();
    servers.scripted = await ScriptedServer.start();
  });
  afterAll(async () => {
    await servers.fake?.close();
    await servers.scripted?.close();
  });
  beforeEach(() => {
    reset();
    servers.fake.reset();
  });
  return servers;
}

/**
 * The calls a text reader leaves to the SDK's model (JSON mode, tools, other settings, files,
 * the provider's own options, doGenerate): each must go out through the SDK's HTTP layer.
 */
export async function expectLeftToSdk(
  ours: LanguageModelV3,
  ownOptions: SharedV3ProviderOptions[],
  sent: SentRequest[],
  /** The reader sends a JSON schema itself: only one the SDK rewrites (an `allOf`) is left. */
  readsJsonSchemas = false,
  /** The reader sends function tools itself: only a tool with OpenAI options is left. */
  readsFunctionTools = false,
): Promise<void> {
  const prompt = [user("Hello")];
  const schema: JSONSchema7 = readsJsonSchemas
    ? { type: "object", properties: { a: { allOf: [{ $ref: "#/definitions/a" }] } } }
    : { type: "object", properties: {} };
  const calls: LanguageModelV3CallOptions[] = [
    { prompt, responseFormat: { type: "json", schema } },
    {
      prompt,
      tools: [
        {
          type: "function",
          name: "look",
          inputSchema: { type: "object" },
          ...(readsFunctionTools ? { providerOptions: { openai: { deferLoading: true } } } : {}),
        },
      ],
    },
    { prompt, topP: 0.5 },
    { prompt, stopSequences: ["END"] },
    {
      prompt: [
        {
          role: "user",
          content: [{ type: "file", mediaType: "image/png", data: "https://example.com/a.png" }],
        },
      ],
    },
    ...ownOptions.map((providerOptions) => ({ prompt, providerOptions })),
  ];
  const before = sent.length;
  for (const options of calls) await partsOf(ours, options);
  await ours.doGenerate({ prompt });
  const requests = sent.slice(before);
  expect(requests).toHaveLength(calls.length + 1);
  for (const request of requests) expect(request.headers["user-agent"]).toMatch(SDK_HTTP_LAYER);
}

/** The HTTP failures each reader must report as the SDK does (its 401 and 400 in its API's words). */
export function httpFailureReplies(keyRefused: string, badRequest: string) {
  return [
    { status: 401, errorMessage: keyRefused },
    { status: 429, headers: { "retry-after": "7" }, errorMessage: "Rate limit reached" },
    { status: 500, errorMessage: "The server had an error" },
    { status: 400, errorMessage: badRequest },
  ];
}

/** An HTTP failure the fake provider answers twice fails in our reader as in the SDK's. */
export async function expectSameHttpFailure(
  fake: FakeProviderServer,
  models: { sdk: LanguageModelV3; ours: LanguageModelV3 },
  prompt: LanguageModelV3Prompt,
  reply: ReturnType<typeof httpFailureReplies>[number],
  provider?: TProviderId,
): Promise<void> {
  fake.next(reply, reply);
  const { fromSdk, fromUs } = await failuresOf(
    models,
    (model) => model.doStream({ prompt }),
    provider,
  );
  expect(fromUs).toEqual(fromSdk);
  expect(fromUs.statusCode).toBe(reply.status);
  expect(fromUs.message).toBe(reply.errorMessage);
}

/** A 502 without an error body (empty, then an HTML page) fails in our reader as in the SDK's. */
export async function expectSameFailureWithoutErrorBody(
  scripted: ScriptedServer,
  models: { sdk: LanguageModelV3; ours: LanguageModelV3 },
  prompt: LanguageModelV3Prompt,
  provider?: TProviderId,
): Promise<void> {
  for (const body of ["", "<html>Bad gateway</html>"]) {
    await scripted.failing(502, { "content-type": "text/html" }, body, async () => {
      const { fromSdk, fromUs } = await failuresOf(
        models,
        (model) => model.doStream({ prompt }),
        provider,
      );
      expect(fromUs).toEqual(fromSdk);
      expect(fromUs.message).toBe("Bad Gateway");
    });
  }
}

/** A body the fake provider cuts mid-stream fails in our reader as in the SDK's (headers aside). */
export async function expectSameFailureOnCutBody(
  fake: FakeProviderServer,
  models: { sdk: LanguageModelV3; ours: LanguageModelV3 },
  prompt: LanguageModelV3Prompt,
  provider?: TProviderId,
): Promise<void> {
  const reply = { text: "one two three four five six", cutAfterChunks: 2 };
  fake.next(reply, reply);
  const { fromSdk, fromUs } = await failuresOf(
    models,
    (model) => partsOf(model, { prompt }),
    provider,
  );
  const { responseHeaders: _a, ...ourFields } = fromUs;
  const { responseHeaders: _b, ...sdkFields } = fromSdk;
  expect(ourFields).toEqual(sdkFields);
  expect(fromUs.message).toBe("Failed to process successful response");
}

/** Reads a stream until its first text delta and leaves the reader there. */
export async function readToFirstText(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<ReadableStreamDefaultReader<LanguageModelV3StreamPart>> {
  const reader = stream.getReader();
  for (;;) {
    const { value } = await reader.read();
    if (value?.type === "text-delta") return reader;
  }
}

/** Streams from `model` until its first text, aborts the call, and returns what reading on threw. */
export async function abortAfterFirstText(
  model: LanguageModelV3,
  prompt: LanguageModelV3Prompt,
): Promise<unknown> {
  const controller = new AbortController();
  const { stream } = await model.doStream({ prompt, abortSignal: controller.signal });
  const reader = await readToFirstText(stream);
  controller.abort();
  return failureOf(
    (async () => {
      for (;;) if ((await reader.read()).done) return;
    })(),
  );
}

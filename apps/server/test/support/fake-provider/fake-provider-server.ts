import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { deflateSync } from "node:zlib";

/**
 * A local model provider that speaks the real wire formats the AI SDK clients use: OpenAI chat
 * completions and responses, Anthropic messages and Gemini generateContent /
 * streamGenerateContent, each streaming (SSE, with usage) and non-streaming. Tests script
 * what the next requests get (slow answers, 429 + Retry-After, 500, a cut stream, silence, a
 * redirect) and read back every request it received.
 */

export type FakeApi = "openai-chat" | "openai-responses" | "anthropic" | "google";

export interface FakeReply {
  /** The answer; defaults to "Hello from the fake <api> (<model>)." */
  text?: string;
  /** For JSON-mode requests: serialised as the answer (and as the JSON tool's input). */
  json?: unknown;
  /** A 4xx/5xx status answers with the provider's error body instead; a 3xx with no body. */
  status?: number;
  headers?: Record<string, string>;
  errorMessage?: string;
  /** Wait before the status line is sent. */
  firstByteDelayMs?: number;
  /** Wait between streamed chunks. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many text chunks (a stream cut mid-way). */
  cutAfterChunks?: number;
  /** Never answer; the request stays open until the client gives up. */
  hang?: boolean;
  /** Answer only once this settles (then after firstByteDelayMs): the test decides when. */
  until?: Promise<unknown>;
  usage?: { inputTokens: number; outputTokens: number };
  /** Send no usage at all (some local servers do not). */
  omitUsage?: boolean;
  /** For POST …/images/generations: the image's bytes (a small PNG by default). */
  image?: Buffer;
  /**
   * An OpenAI Responses stream only: the answer is this one function call, its arguments
   * streamed in two pieces, instead of text.
   */
  toolCall?: { name: string; arguments: string };
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real PNG (`size`×`size`, one RGB colour), as an image API answers with. */
export function solidPng(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(size).fill(rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array(size).fill(row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** What the fake's images endpoint draws unless a reply brings its own. */
export const FAKE_IMAGE = solidPng(16, [37, 99, 235]);

export interface RecordedRequest {
  index: number;
  api: FakeApi | "unknown";
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  stream: boolean;
  model: string | undefined;
  /** performance.now() when the request arrived. */
  receivedAt: number;
  /** Resolves when the connection ends; `early` when the client closed it before the end. */
  closed: Promise<{ early: boolean }>;
}

function detectApi(method: string, path: string): { api: FakeApi | "unknown"; model?: string } {
  if (method !== "POST") return { api: "unknown" };
  if (path.endsWith("/chat/completions")) return { api: "openai-chat" };
  if (path.endsWith("/responses")) return { api: "openai-responses" };
  if (path.endsWith("/messages")) return { api: "anthropic" };
  const google = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (google) return { api: "google", model: decodeURIComponent(google[1] ?? "") };
  return { api: "unknown" };
}

function isStreaming(api: FakeApi | "unknown", path: string, body: Record<string, unknown>) {
  if (api === "google") return path.endsWith(":streamGenerateContent");
  return body.stream === true;
}

/** The request asked for JSON (structured output), in whichever way its API spells that. */
function wantsJson(api: FakeApi | "unknown", body: Record<string, unknown>): boolean {
  const text = JSON.stringify({
    response_format: body.response_format,
    text: body.text,
    generationConfig: body.generationConfig,
    output_format: body.output_format,
    output_config: body.output_config,
  });
  return (
    /json_schema|json_object|application\/json/.test(text) ||
    (api === "anthropic" && usesJsonTool(body))
  );
}

function usesJsonTool(body: Record<string, unknown>): boolean {
  const tools = body.tools;
  return Array.isArray(tools) && tools.some((t) => (t as { name?: string }).name === "json");
}

function piecesOf(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const ERROR_TYPES: Record<number, { openai: string; anthropic: string; google: string }> = {
  400: {
    openai: "invalid_request_error",
    anthropic: "invalid_request_error",
    google: "INVALID_ARGUMENT",
  },
  401: { openai: "invalid_api_key", anthropic: "authentication_error", google: "UNAUTHENTICATED" },
  429: {
    openai: "rate_limit_exceeded",
    anthropic: "rate_limit_error",
    google: "RESOURCE_EXHAUSTED",
  },
  500: { openai: "server_error", anthropic: "api_error", google: "INTERNAL" },
  503: { openai: "server_error", anthropic: "overloaded_error", google: "UNAVAILABLE" },
};

function errorBody(api: FakeApi | "unknown", status: number, message: string): unknown {
  const types = ERROR_TYPES[status] ?? ERROR_TYPES[500];
  if (api === "anthropic") return { type: "error", error: { type: types?.anthropic, message } };
  if (api === "google") return { error: { code: status, message, status: types?.google } };
  return { error: { message, type: types?.openai, param: null, code: types?.openai } };
}

function trigramVector(text: string, dimensions = 64): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const padded = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= padded.length; i++) {
    let hash = 0;
    for (const char of padded.slice(i, i + 3)) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % dimensions] = (vector[hash % dimensions] ?? 0) + 1;
  }
  return vector;
}

export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  /** What requests get once the scripted ones are used up. */
  defaultReply: FakeReply = {};
  /** What GET …/models lists (a local server's own `owned_by`, e.g. Ollama's "library"). */
  models: { id: string; owned_by: string }[] = ["llama3.1", "qwen2.5"].map((id) => ({
    id,
    owned_by: "fake",
  }));
  private readonly queue: FakeReply[] = [];
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /**
   * Listens on `host`: another loopback address (127.0.0.2) stands for a server inside the
   * network that the SSRF guard must never let a user's URL reach.
   */
  static async start(host = "127.0.0.1"): Promise<FakeProviderServer> {
    let fake: FakeProviderServer | undefined;
    const server = createServer((req, res) => {
      void fake?.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeProviderServer(server, `http://${host}:${port}`);
    return fake;
  }

  /** Base URLs as each SDK expects them (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, ...). */
  get baseUrls() {
    return {
      openai: `${this.url}/v1`,
      anthropic: `${this.url}/v1`,
      google: `${this.url}/v1beta`,
      openaiCompatible: `${this.url}/v1`,
    };
  }

  /** Scripts the next requests, in order, whichever API they use. */
  next(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Forgets the scripted replies and the recorded requests; `defaultReply` answers next. */
  reset(defaultReply: FakeReply = {}): void {
    this.queue.length = 0;
    this.requests.length = 0;
    this.defaultReply = defaultReply;
  }

  /** Resolves once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", this.url);
    const method = req.method ?? "GET";
    const { api, model: pathModel } = detectApi(method, url.pathname);
    let body: Record<string, unknown> = {};
    try {
      body = chunks.length
        ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body)
        : {};
    } catch {
      body = {};
    }
    let connectionOpen = true;
    const closed = new Promise<{ early: boolean }>((resolve) => {
      res.on("close", () => {
        connectionOpen = false;
        resolve({ early: !res.writableFinished });
      });
    });
    const record: RecordedRequest = {
      index: this.requests.length,
      api,
      method,
      path: url.pathname + url.search,
      headers: req.headers,
      body,
      stream: isStreaming(api, url.pathname, body),
      model: pathModel ?? (typeof body.model === "string" ? body.model : undefined),
      receivedAt: performance.now(),
      closed,
    };
    this.requests.push(record);
    for (const waiter of [...this.waiters]) {
      if (this.requests.length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }

    const reply = this.queue.shift() ?? this.defaultReply;
    const wait = (ms: number | undefined) => (ms && ms > 0 ? sleep(ms) : Promise.resolve());
    if (reply.hang) return;
    await reply.until;
    await wait(reply.firstByteDelayMs);
    if (!connectionOpen) return;
    // GET …/models: the model list OpenAI-compatible servers (and OpenAI) answer, which a key
    // test of an OpenAI-compatible server uses.
    if (method === "GET" && url.pathname.endsWith("/models")) {
      const status = reply.status ?? 200;
      res.writeHead(status, { "content-type": "application/json", ...reply.headers });
      res.end(
        JSON.stringify(
          status >= 400
            ? errorBody("openai-chat", status, reply.errorMessage ?? `Fake ${status}`)
            : {
                object: "list",
                data: this.models.map((model) => ({ ...model, object: "model" })),
              },
        ),
      );
      return;
    }
    // POST …/embeddings (OpenAI's wire format): deterministic vectors of hashed character
    // trigrams, so that texts sharing spellings are near each other (document search tests).
    if (method === "POST" && url.pathname.endsWith("/embeddings")) {
      const status = reply.status ?? 200;
      const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
      res.writeHead(status, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          status >= 400
            ? errorBody("openai-chat", status, reply.errorMessage ?? `Fake ${status}`)
            : {
                object: "list",
                model: body.model,
                data: inputs.map((input, index) => ({
                  object: "embedding",
                  index,
                  embedding: trigramVector(input),
                })),
                usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
              },
        ),
      );
      return;
    }
    // POST …/images/generations (OpenAI's images API): the picture as b64_json.
    if (method === "POST" && url.pathname.endsWith("/images/generations")) {
      const status = reply.status ?? 200;
      res.writeHead(status, { "content-type": "application/json", ...reply.headers });
      const n = typeof body.n === "number" ? body.n : 1;
      res.end(
        JSON.stringify(
          status >= 400
            ? errorBody("openai-chat", status, reply.errorMessage ?? `Fake ${status}`)
            : {
                created: Math.floor(Date.now() / 1000),
                data: Array.from({ length: n }, () => ({
                  b64_json: (reply.image ?? FAKE_IMAGE).toString("base64"),
                })),
                usage: { input_tokens: 12, output_tokens: 272, total_tokens: 284 },
              },
        ),
      );
      return;
    }
    // A redirect, for any call: SSRF tests check where the client follows it to.
    if (reply.status && reply.status >= 300 && reply.status < 400) {
      res.writeHead(reply.status, { ...reply.headers });
      res.end();
      return;
    }
    if (api === "unknown") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: `No fake route for ${method} ${url.pathname}` } }),
      );
      return;
    }
    if (reply.status && reply.status >= 400) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(
        JSON.stringify(errorBody(api, reply.status, reply.errorMessage ?? `Fake ${reply.status}`)),
      );
      return;
    }

    const json = wantsJson(api, body);
    const text =
      json && reply.json !== undefined
        ? JSON.stringify(reply.json)
        : (reply.text ?? `Hello from the fake ${api} (${record.model ?? "model"}).`);
    const pieces = piecesOf(text);
    const usage = reply.omitUsage
      ? undefined
      : (reply.usage ?? { inputTokens: 12, outputTokens: pieces.length });
    const writer = WRITERS[api];
    const context: WriteContext = {
      model: record.model ?? "model",
      text,
      pieces,
      usage,
      jsonTool: api === "anthropic" && json && usesJsonTool(body),
      includeUsage:
        (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    };
    if (!record.stream) {
      res.writeHead(200, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(writer.complete(context)));
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...reply.headers,
    });
    const send = (event: SseEvent) => {
      if (!connectionOpen) return;
      res.write(
        `${event.event ? `event: ${event.event}\n` : ""}data: ${typeof event.data === "string" ? event.data : JSON.stringify(event.data)}\n\n`,
      );
    };
    if (reply.toolCall && api === "openai-responses") {
      for (const event of functionCallEvents(context, reply.toolCall)) send(event);
      if (connectionOpen) res.end();
      return;
    }
    for (const event of writer.start(context)) send(event);
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) await wait(reply.chunkDelayMs);
      if (!connectionOpen) return;
      if (reply.cutAfterChunks !== undefined && i >= reply.cutAfterChunks) {
        // Let what was written reach the client first, so the cut is really mid-stream.
        await new Promise<void>((resolve) => res.write("", () => resolve()));
        await wait(20);
        res.socket?.destroy();
        return;
      }
      for (const event of writer.delta(context, piece, i)) send(event);
    }
    for (const event of writer.end(context)) send(event);
    if (connectionOpen) res.end();
  }
}

interface SseEvent {
  event?: string;
  data: unknown;
}

interface WriteContext {
  model: string;
  text: string;
  pieces: string[];
  usage: { inputTokens: number; outputTokens: number } | undefined;
  jsonTool: boolean;
  includeUsage: boolean;
}

interface Writer {
  complete(ctx: WriteContext): unknown;
  start(ctx: WriteContext): SseEvent[];
  delta(ctx: WriteContext, piece: string, index: number): SseEvent[];
  end(ctx: WriteContext): SseEvent[];
}

const CREATED = 1_750_000_000;

const openaiChat: Writer = {
  complete: (ctx) => ({
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: CREATED,
    model: ctx.model,
    choices: [
      { index: 0, message: { role: "assistant", content: ctx.text }, finish_reason: "stop" },
    ],
    ...(ctx.usage
      ? {
          usage: {
            prompt_tokens: ctx.usage.inputTokens,
            completion_tokens: ctx.usage.outputTokens,
            total_tokens: ctx.usage.inputTokens + ctx.usage.outputTokens,
          },
        }
      : {}),
  }),
  start: (ctx) => [
    {
      data: {
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: CREATED,
        model: ctx.model,
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      },
    },
  ],
  delta: (ctx, piece) => [
    {
      data: {
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: CREATED,
        model: ctx.model,
        choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
      },
    },
  ],
  end: (ctx) => [
    {
      data: {
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: CREATED,
        model: ctx.model,
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      },
    },
    ...(ctx.usage && ctx.includeUsage
      ? [
          {
            data: {
              id: "chatcmpl-fake",
              object: "chat.completion.chunk",
              created: CREATED,
              model: ctx.model,
              choices: [],
              usage: {
                prompt_tokens: ctx.usage.inputTokens,
                completion_tokens: ctx.usage.outputTokens,
                total_tokens: ctx.usage.inputTokens + ctx.usage.outputTokens,
              },
            },
          },
        ]
      : []),
    { data: "[DONE]" },
  ],
};

function responsesUsage(ctx: WriteContext) {
  return ctx.usage
    ? {
        input_tokens: ctx.usage.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: ctx.usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: ctx.usage.inputTokens + ctx.usage.outputTokens,
      }
    : null;
}

const messageItem = (ctx: WriteContext, status: "in_progress" | "completed") => ({
  type: "message",
  id: "msg_fake",
  status,
  role: "assistant",
  content: status === "completed" ? [{ type: "output_text", text: ctx.text, annotations: [] }] : [],
});

const openaiResponses: Writer = {
  complete: (ctx) => ({
    id: "resp_fake",
    object: "response",
    created_at: CREATED,
    model: ctx.model,
    status: "completed",
    output: [messageItem(ctx, "completed")],
    usage: responsesUsage(ctx),
  }),
  start: (ctx) => [
    {
      event: "response.created",
      data: {
        type: "response.created",
        sequence_number: 0,
        response: responseObject(ctx, "in_progress"),
      },
    },
    {
      event: "response.output_item.added",
      data: {
        type: "response.output_item.added",
        sequence_number: 1,
        output_index: 0,
        item: messageItem(ctx, "in_progress"),
      },
    },
  ],
  delta: (_ctx, piece, index) => [
    {
      event: "response.output_text.delta",
      data: {
        type: "response.output_text.delta",
        sequence_number: 2 + index,
        item_id: "msg_fake",
        output_index: 0,
        content_index: 0,
        delta: piece,
        logprobs: [],
      },
    },
  ],
  end: (ctx) => [
    {
      event: "response.output_item.done",
      data: {
        type: "response.output_item.done",
        sequence_number: 2 + ctx.pieces.length,
        output_index: 0,
        item: messageItem(ctx, "completed"),
      },
    },
    {
      event: "response.completed",
      data: {
        type: "response.completed",
        sequence_number: 3 + ctx.pieces.length,
        response: responseObject(ctx, "completed"),
      },
    },
  ],
};

/** A Responses stream's response object, in progress (no output yet) or completed (its usage). */
function responseObject(ctx: WriteContext, status: "in_progress" | "completed") {
  return {
    id: "resp_fake",
    object: "response",
    created_at: CREATED,
    model: ctx.model,
    status,
    ...(status === "in_progress" ? { output: [] } : { usage: responsesUsage(ctx) }),
  };
}

/** A Responses stream whose one output item is a function call, as OpenAI streams one. */
function functionCallEvents(
  ctx: WriteContext,
  call: { name: string; arguments: string },
): SseEvent[] {
  const item = (status: string, args: string) => ({
    id: "fc_fake",
    type: "function_call",
    status,
    call_id: "call_fake",
    name: call.name,
    arguments: args,
  });
  const half = Math.ceil(call.arguments.length / 2);
  const events = [
    { type: "response.created", response: responseObject(ctx, "in_progress") },
    { type: "response.output_item.added", output_index: 0, item: item("in_progress", "") },
    ...[call.arguments.slice(0, half), call.arguments.slice(half)].map((delta) => ({
      type: "response.function_call_arguments.delta",
      item_id: "fc_fake",
      output_index: 0,
      delta,
    })),
    {
      type: "response.function_call_arguments.done",
      item_id: "fc_fake",
      output_index: 0,
      arguments: call.arguments,
    },
    { type: "response.output_item.done", output_index: 0, item: item("completed", call.arguments) },
    { type: "response.completed", response: responseObject(ctx, "completed") },
  ];
  return events.map((data, sequence_number) => ({
    event: data.type,
    data: { ...data, sequence_number },
  }));
}

const anthropic: Writer = {
  complete: (ctx) => ({
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: ctx.jsonTool
      ? [
          {
            type: "tool_use",
            id: "toolu_fake",
            name: "json",
            input: JSON.parse(ctx.text) as unknown,
          },
        ]
      : [{ type: "text", text: ctx.text }],
    stop_reason: ctx.jsonTool ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: ctx.usage?.inputTokens ?? 0,
      output_tokens: ctx.usage?.outputTokens ?? 0,
    },
  }),
  start: (ctx) => [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: "msg_fake",
          type: "message",
          role: "assistant",
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: ctx.usage?.inputTokens ?? 0, output_tokens: 1 },
        },
      },
    },
    {
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index: 0,
        content_block: ctx.jsonTool
          ? { type: "tool_use", id: "toolu_fake", name: "json", input: {} }
          : { type: "text", text: "" },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ],
  delta: (ctx, piece) => [
    {
      event: "content_block_delta",
      data: {
        type: "content_block_delta",
        index: 0,
        delta: ctx.jsonTool
          ? { type: "input_json_delta", partial_json: piece }
          : { type: "text_delta", text: piece },
      },
    },
  ],
  end: (ctx) => [
    { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: ctx.jsonTool ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: ctx.usage?.outputTokens ?? 0 },
      },
    },
    { event: "message_stop", data: { type: "message_stop" } },
  ],
};

function googleUsage(ctx: WriteContext) {
  return ctx.usage
    ? {
        usageMetadata: {
          promptTokenCount: ctx.usage.inputTokens,
          candidatesTokenCount: ctx.usage.outputTokens,
          totalTokenCount: ctx.usage.inputTokens + ctx.usage.outputTokens,
        },
      }
    : {};
}

const google: Writer = {
  complete: (ctx) => ({
    candidates: [
      { content: { parts: [{ text: ctx.text }], role: "model" }, finishReason: "STOP", index: 0 },
    ],
    ...googleUsage(ctx),
    modelVersion: ctx.model,
  }),
  start: () => [],
  delta: (ctx, piece) => [
    {
      data: {
        candidates: [{ content: { parts: [{ text: piece }], role: "model" }, index: 0 }],
        modelVersion: ctx.model,
      },
    },
  ],
  end: (ctx) => [
    {
      data: {
        candidates: [
          { content: { parts: [{ text: "" }], role: "model" }, finishReason: "STOP", index: 0 },
        ],
        ...googleUsage(ctx),
        modelVersion: ctx.model,
      },
    },
  ],
};

const WRITERS: Record<FakeApi, Writer> = {
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  anthropic,
  google,
};

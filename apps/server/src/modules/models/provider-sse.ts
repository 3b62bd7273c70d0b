import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import {
  APICallError,
  EmptyResponseBodyError,
  type JSONObject,
  type JSONValue,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { createParser } from "eventsource-parser";

/**
 * What Cohort's own stream readers share (OpenAI Responses, Chat Completions): the request on
 * node:http (or the fetch a provider was given), HTTP and connection failures as the SDK's
 * APICallErrors, and a server-sent-event body read piece by piece into stream parts. Each
 * reader turns its wire format's events into the SDK's stream parts; the rest is here.
 */

export interface ProviderConnection {
  /** The base URL the SDK provider was given. */
  baseURL: string;
  /** Sent as `Authorization: Bearer …`; a local server may need none. */
  apiKey?: string | undefined;
  /** The SDK provider's own user-agent token, e.g. `ai-sdk/openai/<version>`. */
  userAgent: string;
  /**
   * The fetch the SDK provider was given, if any. Without one the request goes out through
   * node:http on kept-alive connections: undici's fetch took ~2 ms more per call to the first
   * chunk (its web-stream body and request machinery) and a share of the CPU (decision 026).
   */
  fetch?: typeof globalThis.fetch;
}

/** Call options a text reader reads; a call that sets any other one goes to the SDK's model. */
const TEXT_OPTIONS: ReadonlySet<string> = new Set([
  "prompt",
  "maxOutputTokens",
  "temperature",
  "abortSignal",
  "providerOptions",
]);

/** The call sets no option but those a text reader reads. */
export function setsOnlyTextOptions(options: LanguageModelV3CallOptions): boolean {
  return Object.entries(options).every(
    ([key, value]) => value === undefined || TEXT_OPTIONS.has(key),
  );
}

/**
 * The SDK's model with its text streams read by one of ours: `read` gives the stream of a
 * call it handles, or undefined to leave the call to the SDK's model (as every `doGenerate`).
 */
export function withOwnTextStream(
  model: LanguageModelV3,
  read: (options: LanguageModelV3CallOptions) => Promise<LanguageModelV3StreamResult> | undefined,
): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: (options) => read(options) ?? model.doStream(options),
  };
}

/** What the errors of one call carry, as the SDK's do. */
export interface RequestContext {
  url: string;
  /** The body as sent: in HTTP and body-read errors, as postToApi reports it. */
  sent: object;
}

export interface StreamContext extends RequestContext {
  statusCode: number;
  responseHeaders: Record<string, string>;
}

/** A base URL without its trailing slash, as the SDK's withoutTrailingSlash. */
export function withoutTrailingSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}

/** A response body read piece by piece: a fetch body's reader, or a node:http response's. */
export interface BodyReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** What the reader needs of a response, whichever way the request went out. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: BodyReader | null;
  text(): Promise<string>;
}

/**
 * The runtime part of the SDK's user-agent, worked out as the SDK does: Node 21 and later
 * have `navigator.userAgent` ("Node.js/24"), Node 20 only its version ("v20.20.2").
 */
const RUNTIME_USER_AGENT = (() => {
  const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  return userAgent ? `runtime/${userAgent.toLowerCase()}` : `runtime/node.js/${process.version}`;
})();

async function post(
  context: RequestContext,
  abortSignal: AbortSignal | undefined,
  connection: ProviderConnection,
): Promise<RawResponse> {
  const headers = {
    "content-type": "application/json",
    ...(connection.apiKey ? { authorization: `Bearer ${connection.apiKey}` } : {}),
    "user-agent": `${connection.userAgent} ${RUNTIME_USER_AGENT}`,
  };
  const body = JSON.stringify(context.sent);
  try {
    const response = connection.fetch
      ? await fetchPost(connection.fetch, context.url, headers, body, abortSignal)
      : await httpPost(context, headers, body, abortSignal);
    if (response.status >= 200 && response.status < 300) return response;
    throw await httpFailure(response, context);
  } catch (error) {
    throw connectionFailure(error, context);
  }
}

/**
 * POSTs a streaming request: a 2xx answer with its body and the stream's context, else the
 * SDK's APICallError (an HTTP failure, a connection that could not be made, a missing body).
 */
export async function postForStream(
  context: RequestContext,
  abortSignal: AbortSignal | undefined,
  connection: ProviderConnection,
): Promise<{ body: BodyReader; context: StreamContext }> {
  const response = await post(context, abortSignal, connection);
  const streamContext = {
    ...context,
    statusCode: response.status,
    responseHeaders: response.headers,
  };
  if (!response.body) {
    throw new APICallError({
      message: "Failed to process successful response",
      cause: new EmptyResponseBodyError({}),
      statusCode: response.status,
      url: context.url,
      responseHeaders: response.headers,
      requestBodyValues: context.sent,
    });
  }
  return { body: response.body, context: streamContext };
}

async function fetchPost(
  fetch: typeof globalThis.fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal | undefined,
): Promise<RawResponse> {
  const response = await fetch(url, { method: "POST", headers, body, signal: signal ?? null });
  return {
    status: response.status,
    statusText: response.statusText,
    headers: Object.fromEntries(response.headers),
    body: response.body ? bodyReader(response.body) : null,
    text: () => response.text(),
  };
}

/** Locks the body on the first read only: an error's body is read whole by `text` instead. */
function bodyReader(body: ReadableStream<Uint8Array>): BodyReader {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return {
    read: () => {
      reader ??= body.getReader();
      return reader.read() as ReturnType<BodyReader["read"]>;
    },
    cancel: (reason) => (reader ? reader.cancel(reason) : body.cancel(reason)),
  };
}

/** Connections to the provider stay open between calls, as fetch keeps them. */
const agents = {
  http: new http.Agent({ keepAlive: true }),
  https: new https.Agent({ keepAlive: true }),
};

function httpPost(
  context: RequestContext,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal | undefined,
): Promise<RawResponse> {
  const url = new URL(context.url);
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        ...(signal ? { signal } : {}),
      },
      (response) => resolve(rawResponse(response, signal)),
    );
    request.on("error", (error) => {
      // No response at all: as fetch's "fetch failed", a connection that could not be made.
      reject(
        isAbortError(error)
          ? error
          : new APICallError({
              message: `Cannot connect to API: ${error.message}`,
              cause: error,
              url: context.url,
              requestBodyValues: context.sent,
              isRetryable: true,
            }),
      );
    });
    request.end(body);
  });
}

function rawResponse(response: IncomingMessage, signal: AbortSignal | undefined): RawResponse {
  // Made on the first read: an error's body is read whole by `text` instead.
  let pieces: AsyncIterator<Buffer> | null = null;
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    headers: Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? ""),
      ]),
    ),
    body: {
      async read() {
        pieces ??= response[Symbol.asyncIterator]();
        // An abort destroys the response: its "aborted" error is the caller's stop, as fetch says.
        const next = await pieces.next().catch((error: unknown) => {
          throw signal?.aborted ? signal.reason : error;
        });
        return next.done ? { done: true } : { done: false, value: next.value };
      },
      async cancel() {
        response.destroy();
      },
    },
    async text() {
      let text = "";
      response.setEncoding("utf8");
      for await (const piece of response) text += piece;
      return text;
    },
  };
}

/** The SDK's openaiFailedResponseHandler: OpenAI's `error.message`, else the status text. */
async function httpFailure(response: RawResponse, context: RequestContext): Promise<unknown> {
  const responseHeaders = response.headers;
  const statusCode = response.status;
  let responseBody: string;
  try {
    responseBody = await response.text();
  } catch (error) {
    if (isAbortError(error)) return error;
    return new APICallError({
      message: "Failed to process error response",
      cause: error,
      statusCode,
      url: context.url,
      responseHeaders,
      requestBodyValues: context.sent,
    });
  }
  const data = responseBody.trim() === "" ? undefined : openAIErrorData(parseJson(responseBody));
  return new APICallError({
    message: data?.error.message ?? response.statusText,
    url: context.url,
    requestBodyValues: context.sent,
    statusCode,
    responseHeaders,
    responseBody,
    ...(data ? { data } : {}),
  });
}

export interface OpenAIErrorData {
  error: {
    message: string;
    type?: string | null;
    param?: JSONValue;
    code?: string | number | null;
  };
}

/** `{ error: { message, type?, param?, code? } }` as the SDK's schema reads it, or undefined. */
export function openAIErrorData(value: JSONValue | undefined): OpenAIErrorData | undefined {
  const error = isRecord(value) ? value.error : undefined;
  if (!isRecord(error) || typeof error.message !== "string") return undefined;
  const { type, param, code } = error;
  if (type != null && typeof type !== "string") return undefined;
  if (code != null && typeof code !== "string" && typeof code !== "number") return undefined;
  return {
    error: {
      message: error.message,
      ...("type" in error ? { type } : {}),
      ...("param" in error ? { param } : {}),
      ...("code" in error ? { code } : {}),
    },
  };
}

const FETCH_FAILED_MESSAGES = ["fetch failed", "failed to fetch"];
const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function isAbortError(error: unknown): boolean {
  return (
    (error instanceof Error || error instanceof DOMException) &&
    (error.name === "AbortError" ||
      error.name === "ResponseAborted" ||
      error.name === "TimeoutError")
  );
}

function networkErrorIn(error: unknown): Error | undefined {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE_NETWORK_CODES.has(code)) return current;
    current = current.cause;
  }
  return undefined;
}

/** The SDK's handleFetchError: aborts pass through, lost connections become retryable. */
export function connectionFailure(error: unknown, context: RequestContext): unknown {
  if (isAbortError(error)) return error;
  const cause = error instanceof TypeError ? error.cause : undefined;
  if (
    error instanceof TypeError &&
    FETCH_FAILED_MESSAGES.includes(error.message.toLowerCase()) &&
    cause != null
  ) {
    return new APICallError({
      message: `Cannot connect to API: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
      url: context.url,
      requestBodyValues: context.sent,
      isRetryable: true,
    });
  }
  const network = networkErrorIn(error);
  if (!network) return error;
  if (APICallError.isInstance(error)) {
    return new APICallError({
      message: error.message,
      cause: error.cause,
      url: error.url,
      requestBodyValues: error.requestBodyValues,
      statusCode: error.statusCode,
      responseHeaders: error.responseHeaders,
      responseBody: error.responseBody,
      data: error.data,
      isRetryable: true,
    });
  }
  return new APICallError({
    message: `Cannot connect to API: ${error instanceof Error ? error.message : network.message}`,
    cause: error,
    url: context.url,
    requestBodyValues: context.sent,
    isRetryable: true,
  });
}

/** A body that breaks while being read fails as the SDK's does (aborts pass through). */
export function bodyFailure(error: unknown, context: StreamContext): unknown {
  if (isAbortError(error)) return error;
  return connectionFailure(
    new APICallError({
      message: "Failed to process successful response",
      cause: error,
      statusCode: context.statusCode,
      url: context.url,
      responseHeaders: context.responseHeaders,
      requestBodyValues: context.sent,
    }),
    context,
  );
}

export function parseJson(text: string): JSONValue | undefined {
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return undefined;
  }
}

/** The usage of a stream that reported none, as the SDK's readers give it. */
export function noUsage(): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: undefined,
      noCache: undefined,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    raw: undefined,
  };
}

export function isRecord(value: unknown): value is JSONObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A server-sent-event body, fed piece by piece through one decoder and one parser. */
export interface SseSource {
  /** Reads the next piece and hands its events' data on; false once the body has ended. */
  read(): Promise<boolean>;
  readonly ended: boolean;
  cancel(reason?: unknown): Promise<void>;
}

export function sseSource(
  body: BodyReader,
  context: StreamContext,
  onData: (data: string) => void,
): SseSource {
  const decoder = new TextDecoder();
  const parser = createParser({ onEvent: (event) => onData(event.data) });
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    async read() {
      const result = await body.read().catch((error: unknown) => {
        throw bodyFailure(error, context);
      });
      if (result.done) {
        ended = true;
        const tail = decoder.decode();
        if (tail) parser.feed(tail);
        return false;
      }
      parser.feed(decoder.decode(result.value, { stream: true }));
      return true;
    },
    cancel: (reason) => body.cancel(reason),
  };
}

/**
 * The parts a reader made from the source, as the stream `doStream` returns: `pending` is
 * filled by the reader as events come; `end` gives the last parts once the body has ended.
 */
export function partsStream(
  source: SseSource,
  pending: LanguageModelV3StreamPart[],
  end: () => LanguageModelV3StreamPart[],
): ReadableStream<LanguageModelV3StreamPart> {
  let cancelled = false;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      // A pull that enqueues nothing would stall the stream: read until a part or the end.
      while (pending.length === 0 && !source.ended) await source.read();
      if (cancelled) return;
      for (const part of pending) controller.enqueue(part);
      pending.length = 0;
      if (source.ended) {
        for (const part of end()) controller.enqueue(part);
        controller.close();
      }
    },
    cancel(reason) {
      cancelled = true;
      return source.cancel(reason);
    },
  });
}

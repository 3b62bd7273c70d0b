import {
  InvalidResponseDataError,
  type JSONObject,
  JSONParseError,
  type JSONValue,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
  type SharedV3ProviderOptions,
  TypeValidationError,
} from "@ai-sdk/provider";
import {
  isRecord,
  noUsage,
  openAIErrorData,
  type ProviderConnection,
  partsStream,
  postForStream,
  setsOnlyTextOptions,
  sseSource,
  withOwnTextStream,
  withoutTrailingSlash,
} from "./provider-sse";

/**
 * Chat Completions text streams (OpenAI-compatible servers: Ollama, vLLM, LM Studio, a
 * user's own server) read by Cohort itself, as `openai-responses-stream.ts` reads OpenAI's
 * Responses API. The SDK's `doStream` took ~2–3 ms more to the first delta than a plain
 * proxy (undici's fetch, then three web-stream stages and a zod union per chunk), most of
 * CoChat's added time to first token (decision 027). Everything else (doGenerate, structured
 * output, tools, files, provider options, any option not handled here) is the SDK's own
 * model, unchanged.
 *
 * What goes on the wire and what comes back follow the SDK (`@ai-sdk/openai-compatible`'s
 * OpenAICompatibleChatLanguageModel, created with `includeUsage`): the same body, URL and
 * headers, the same stream parts, the same APICallError for HTTP failures, the same error
 * parts for malformed chunks and error chunks. openai-chat-stream.test.ts checks each against
 * the SDK's model. One difference: tool-call deltas, which a server has no reason to send to a
 * call that declares no tools, are skipped (the SDK would turn them into tool-call parts, which
 * the gateway ignores too).
 */

export interface ChatConnection extends ProviderConnection {
  /** The provider's name as given to `createOpenAICompatible` (its provider options key). */
  providerName: string;
}

/** The SDK's model, with text streams (`doStream` on a plain text prompt) read here. */
export function withLightChatStream(
  model: LanguageModelV3,
  connection: ChatConnection,
): LanguageModelV3 {
  return withOwnTextStream(model, (options) => {
    const body = plainTextBody(model.modelId, options, connection.providerName);
    return body && readChatStream(body, options.abortSignal, connection);
  });
}

type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | { type: "text"; text: string }[] }
  | { role: "assistant"; content: string };

/** The SDK's request body for a plain text stream, in its key order. */
interface ChatBody {
  model: string;
  max_tokens: number | undefined;
  temperature: number | undefined;
  messages: ChatMessage[];
  stream: true;
  stream_options: { include_usage: true };
}

/** The keys the SDK reads its own options from (and spreads into the body). */
function optionKeys(providerName: string): string[] {
  const camel = providerName.replace(/[_-]([a-z])/g, (g) => (g[1] as string).toUpperCase());
  return ["openai-compatible", "openaiCompatible", providerName, camel];
}

function hasOwnOptions(options: SharedV3ProviderOptions | undefined, keys: string[]): boolean {
  return keys.some((key) => options?.[key] != null);
}

/** The body the SDK would send, when the call is one this reader handles. */
function plainTextBody(
  modelId: string,
  options: LanguageModelV3CallOptions,
  providerName: string,
): ChatBody | undefined {
  if (!setsOnlyTextOptions(options)) return undefined;
  const keys = optionKeys(providerName);
  if (hasOwnOptions(options.providerOptions, keys)) return undefined;
  const messages = chatMessages(options.prompt, keys);
  if (!messages) return undefined;
  return {
    model: modelId,
    max_tokens: options.maxOutputTokens,
    temperature: options.temperature,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** convertToOpenAICompatibleChatMessages for text only; undefined when the prompt has more. */
function chatMessages(prompt: LanguageModelV3Prompt, keys: string[]): ChatMessage[] | undefined {
  const messages: ChatMessage[] = [];
  for (const message of prompt) {
    if (hasOwnOptions(message.providerOptions, keys)) return undefined;
    if (message.role === "system") {
      messages.push({ role: "system", content: message.content });
      continue;
    }
    if (message.role === "tool") return undefined;
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type !== "text" || hasOwnOptions(part.providerOptions, keys)) return undefined;
      texts.push(part.text);
    }
    if (message.role === "assistant") {
      messages.push({ role: "assistant", content: texts.join("") });
    } else if (texts.length === 1) {
      messages.push({ role: "user", content: texts[0] as string });
    } else {
      messages.push({ role: "user", content: texts.map((text) => ({ type: "text", text })) });
    }
  }
  return messages;
}

async function readChatStream(
  body: ChatBody,
  abortSignal: AbortSignal | undefined,
  connection: ChatConnection,
): Promise<LanguageModelV3StreamResult> {
  const url = new URL(`${withoutTrailingSlash(connection.baseURL)}/chat/completions`).toString();
  const response = await postForStream({ url, sent: body }, abortSignal, connection);
  const reader = createChunkReader(connection.providerName);
  const source = sseSource(response.body, response.context, reader.onData);
  return {
    stream: partsStream(source, reader.pending, reader.end),
    request: { body },
    response: { headers: response.context.responseHeaders },
  };
}

// --- The chunks -------------------------------------------------------------------------

interface ReadState {
  finishReason: LanguageModelV3FinishReason | undefined;
  usage: JSONObject | undefined;
  firstChunk: boolean;
  activeText: boolean;
  activeReasoning: boolean;
}

/** The chunk stream as the SDK's doStream turns it into parts. */
function createChunkReader(providerName: string) {
  const state: ReadState = {
    finishReason: undefined,
    usage: undefined,
    firstChunk: true,
    activeText: false,
    activeReasoning: false,
  };
  const pending: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  const emit = (part: LanguageModelV3StreamPart) => pending.push(part);

  function fail(error: unknown) {
    state.finishReason = { unified: "error", raw: undefined };
    emit({ type: "error", error });
  }

  const reasoning = (delta: string) => {
    if (state.activeText) {
      emit({ type: "text-end", id: "txt-0" });
      state.activeText = false;
    }
    if (!state.activeReasoning) {
      emit({ type: "reasoning-start", id: "reasoning-0" });
      state.activeReasoning = true;
    }
    emit({ type: "reasoning-delta", id: "reasoning-0", delta });
  };
  const endReasoning = () => {
    if (!state.activeReasoning) return;
    emit({ type: "reasoning-end", id: "reasoning-0" });
    state.activeReasoning = false;
  };
  const text = (delta: string) => {
    endReasoning();
    if (!state.activeText) {
      emit({ type: "text-start", id: "txt-0" });
      state.activeText = true;
    }
    emit({ type: "text-delta", id: "txt-0", delta });
  };

  function onData(data: string) {
    if (data === "[DONE]") return;
    const parsed = parseChunk(data);
    if (!parsed.ok) return fail(parsed.error);
    const chunk = parsed.chunk;
    if ("error" in chunk) return fail(chunk.error);
    if (state.firstChunk) {
      state.firstChunk = false;
      emit({
        type: "response-metadata",
        id: stringOrUndefined(chunk.id),
        modelId: stringOrUndefined(chunk.model),
        timestamp: typeof chunk.created === "number" ? new Date(chunk.created * 1000) : undefined,
      });
    }
    if (isRecord(chunk.usage)) state.usage = chunk.usage;
    const choice = (chunk.choices as JSONValue[])[0];
    if (!isRecord(choice)) return;
    if (typeof choice.finish_reason === "string") {
      state.finishReason = {
        unified: unifiedFinishReason(choice.finish_reason),
        raw: choice.finish_reason,
      };
    }
    const delta = choice.delta;
    if (!isRecord(delta)) return;
    const thought = delta.reasoning_content ?? delta.reasoning;
    if (typeof thought === "string" && thought) reasoning(thought);
    for (const part of contentParts(delta.content)) {
      if (part.reasoning) reasoning(part.text);
      else text(part.text);
    }
    if (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0) endReasoning();
  }

  function end(): LanguageModelV3StreamPart[] {
    endReasoning();
    if (state.activeText) emit({ type: "text-end", id: "txt-0" });
    if (!state.finishReason) {
      fail(
        new InvalidResponseDataError({
          data: undefined,
          message: "Response stream ended without a finish reason.",
        }),
      );
    }
    const details = isRecord(state.usage?.completion_tokens_details)
      ? state.usage.completion_tokens_details
      : {};
    emit({
      type: "finish",
      finishReason: state.finishReason as LanguageModelV3FinishReason,
      usage: convertUsage(state.usage),
      providerMetadata: {
        [providerName]: {
          ...(details.accepted_prediction_tokens != null
            ? { acceptedPredictionTokens: details.accepted_prediction_tokens }
            : {}),
          ...(details.rejected_prediction_tokens != null
            ? { rejectedPredictionTokens: details.rejected_prediction_tokens }
            : {}),
        },
      },
    });
    return pending.splice(0);
  }

  return { pending, onData, end };
}

const stringOrUndefined = (value: JSONValue | undefined) =>
  typeof value === "string" ? value : undefined;

/** convertOpenAICompatibleContent: text, and `thinking` parts as reasoning. */
function contentParts(content: JSONValue | undefined): { text: string; reasoning: boolean }[] {
  if (typeof content === "string") return content ? [{ text: content, reasoning: false }] : [];
  if (!Array.isArray(content)) return [];
  const parts: { text: string; reasoning: boolean }[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (part.type === "text" && typeof part.text === "string") {
      if (part.text) parts.push({ text: part.text, reasoning: false });
    } else if (part.type === "thinking" && Array.isArray(part.thinking)) {
      const thought = part.thinking
        .filter((c) => isRecord(c) && c.type === "text" && typeof c.text === "string")
        .map((c) => (c as JSONObject).text as string)
        .join("");
      if (thought) parts.push({ text: thought, reasoning: true });
    }
  }
  return parts;
}

/** mapOpenAICompatibleFinishReason. */
function unifiedFinishReason(reason: string): LanguageModelV3FinishReason["unified"] {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case "function_call":
    case "tool_calls":
      return "tool-calls";
    default:
      return "other";
  }
}

/** convertOpenAICompatibleChatUsage. */
function convertUsage(usage: JSONObject | undefined): LanguageModelV3Usage {
  if (!usage) return noUsage();
  const number = (value: JSONValue | undefined) => (typeof value === "number" ? value : 0);
  const input = number(usage.prompt_tokens);
  const output = number(usage.completion_tokens);
  const inputDetails = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const outputDetails = isRecord(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : {};
  const cacheRead = number(inputDetails.cached_tokens);
  const reasoning = number(outputDetails.reasoning_tokens);
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: Math.max(0, output - reasoning), reasoning },
    raw: usage,
  };
}

// --- Validation, as the SDK's chunk schema (a chunk, or an error object) -------------------

type ParsedChunk =
  | { ok: true; chunk: JSONObject & ({ choices: JSONValue[] } | { error: JSONValue }) }
  | { ok: false; error: unknown };

const isNullish = (value: JSONValue | undefined) => value == null;
const nullishString = (value: JSONValue | undefined) => value == null || typeof value === "string";
const nullishNumber = (value: JSONValue | undefined) => value == null || typeof value === "number";

function isValidUsage(usage: JSONValue | undefined): boolean {
  if (isNullish(usage)) return true;
  if (!isRecord(usage)) return false;
  const { prompt_tokens_details: input, completion_tokens_details: output } = usage;
  return (
    nullishNumber(usage.prompt_tokens) &&
    nullishNumber(usage.completion_tokens) &&
    nullishNumber(usage.total_tokens) &&
    (isNullish(input) || (isRecord(input) && nullishNumber(input.cached_tokens))) &&
    (isNullish(output) ||
      (isRecord(output) &&
        nullishNumber(output.reasoning_tokens) &&
        nullishNumber(output.accepted_prediction_tokens) &&
        nullishNumber(output.rejected_prediction_tokens)))
  );
}

function isValidContent(content: JSONValue | undefined): boolean {
  if (nullishString(content)) return true;
  return (
    Array.isArray(content) &&
    content.every((part) => isRecord(part) && typeof part.type === "string")
  );
}

function isValidToolCall(call: JSONValue): boolean {
  if (!isRecord(call) || !nullishNumber(call.index) || !nullishString(call.id)) return false;
  const fn = call.function;
  if (!isRecord(fn) || !nullishString(fn.name) || !nullishString(fn.arguments)) return false;
  const extra = call.extra_content;
  if (isNullish(extra)) return true;
  if (!isRecord(extra)) return false;
  const google = extra.google;
  return isNullish(google) || (isRecord(google) && nullishString(google.thought_signature));
}

function isValidDelta(delta: JSONValue | undefined): boolean {
  if (isNullish(delta)) return true;
  if (!isRecord(delta)) return false;
  const role = delta.role;
  return (
    (isNullish(role) || role === "assistant" || role === "") &&
    isValidContent(delta.content) &&
    nullishString(delta.reasoning_content) &&
    nullishString(delta.reasoning) &&
    (isNullish(delta.tool_calls) ||
      (Array.isArray(delta.tool_calls) && delta.tool_calls.every(isValidToolCall)))
  );
}

function isValidChunk(value: JSONObject): value is JSONObject & { choices: JSONValue[] } {
  return (
    nullishString(value.id) &&
    nullishNumber(value.created) &&
    nullishString(value.model) &&
    Array.isArray(value.choices) &&
    value.choices.every(
      (choice) =>
        isRecord(choice) && isValidDelta(choice.delta) && nullishString(choice.finish_reason),
    ) &&
    isValidUsage(value.usage)
  );
}

/** One SSE data line as a chunk, or the error the SDK's parse step would report. */
function parseChunk(data: string): ParsedChunk {
  let value: JSONValue;
  try {
    value = JSON.parse(data) as JSONValue;
  } catch (cause) {
    return { ok: false, error: new JSONParseError({ text: data, cause }) };
  }
  if (isRecord(value) && isValidChunk(value)) return { ok: true, chunk: value };
  // The error branch of the SDK's union is a strict object: only its fields are kept.
  const error = openAIErrorData(value);
  if (error) return { ok: true, chunk: error as unknown as JSONObject & { error: JSONValue } };
  return {
    ok: false,
    error: TypeValidationError.wrap({ value, cause: new Error("not a chat completion chunk") }),
  };
}

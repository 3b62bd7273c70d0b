import {
  APICallError,
  isJSONObject,
  type JSONObject,
  JSONParseError,
  type JSONSchema7,
  type JSONValue,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3Usage,
  type SharedV3ProviderOptions,
  type SharedV3Warning,
  TypeValidationError,
} from "@ai-sdk/provider";
import {
  type BodyReader,
  isRecord,
  noUsage,
  type ProviderConnection,
  partsStream,
  postForStream,
  type RequestContext,
  type StreamContext as SharedStreamContext,
  setsOnlyTextOptions,
  sseSource,
  withOwnTextStream,
  withoutTrailingSlash,
} from "./provider-sse";

/**
 * OpenAI's Responses API with plain text streams read by Cohort itself: one body reader, one
 * TextDecoder and eventsource-parser's `createParser`, a few fields checked by hand. The SDK's
 * `doStream` runs each chunk through three web-stream stages and a zod union; under load that
 * was the biggest CPU cost of a run. A structured answer with a JSON schema (the plan) is read
 * here too: its request went out through the SDK's fetch a few ms later, at the head of every
 * run (decision 090). An agent's turn that offers function tools is read here too, its
 * function calls streamed as the SDK streams them (decision 095): four of a run's six calls
 * offer tools. Everything else (doGenerate, a schema the SDK rewrites, a prompt that carries
 * tool calls or results, provider tools, files, provider options, any option not handled
 * here) is the SDK's own model, unchanged.
 *
 * What goes on the wire and what comes back follow the SDK (`@ai-sdk/openai`'s
 * OpenAIResponsesLanguageModel): the same body, URL and headers, the same stream parts, the
 * same APICallError for HTTP failures and for an error event before any output, the same error
 * parts after it. openai-responses-stream.test.ts checks each against the SDK's model.
 */

/** The SDK's model, with text streams (`doStream` on a plain text prompt) read here. */
export function withLightTextStream(
  model: LanguageModelV3,
  connection: ProviderConnection,
): LanguageModelV3 {
  return withOwnTextStream(model, (options) => {
    const request = plainTextRequest(model.modelId, options);
    return request && readTextStream(request, options.abortSignal, connection);
  });
}

type InputItem =
  | { role: "system" | "developer"; content: string }
  | { role: "user"; content: { type: "input_text"; text: string }[] }
  | { role: "assistant"; content: [{ type: "output_text"; text: string }] };

/** The SDK's request body for a plain text call, in its key order, without `stream`. */
interface ResponsesBody {
  model: string;
  input: InputItem[];
  temperature: number | undefined;
  max_output_tokens: number | undefined;
  /** Structured output (the plan): the SDK's `text.format` for a JSON schema. */
  text?: { format: JsonSchemaFormat };
  /** Function tools offered (an agent's turn, decision 095), after every other field. */
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
}

/** prepareFunctionTool for a tool without OpenAI provider options. */
interface FunctionTool {
  type: "function";
  name: string;
  description: string | undefined;
  parameters: JSONSchema7;
  strict?: boolean;
}

type ToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

/**
 * Tool names the SDK's `tool_choice` sends as a built-in's type rather than as a function
 * (`prepareResponsesTools`); a call that names one is left to the SDK.
 */
const BUILT_IN_TOOL_CHOICES: ReadonlySet<string> = new Set([
  "code_interpreter",
  "file_search",
  "image_generation",
  "web_search_preview",
  "web_search",
  "mcp",
  "apply_patch",
]);

/** The SDK's `text.format` for `responseFormat: { type: "json", schema }` (strict by default). */
interface JsonSchemaFormat {
  type: "json_schema";
  strict: true;
  name: string;
  description: string | undefined;
  schema: JSONSchema7;
}

/**
 * A JSON schema as the SDK sends it (`normalizeOpenAIJsonSchema`): unchanged unless it has an
 * `allOf` somewhere (a single `$ref` in one is inlined), so one with `allOf` is left to the SDK.
 * Worked out once per schema (the plan's are module constants, `jsonSchemaOf`).
 */
const sentAsIs = new WeakMap<JSONSchema7, boolean>();
function sendsAsIs(schema: JSONSchema7): boolean {
  let asIs = sentAsIs.get(schema);
  if (asIs === undefined) {
    asIs = !JSON.stringify(schema).includes('"allOf"');
    sentAsIs.set(schema, asIs);
  }
  return asIs;
}

/**
 * The call's `text` field: a JSON schema's format (decision 090: the plan's request on this
 * reader, not the SDK's fetch), nothing for plain text, undefined for any other response
 * format (the SDK's model sends it).
 */
function textFormat(
  responseFormat: LanguageModelV3CallOptions["responseFormat"],
): { text?: { format: JsonSchemaFormat } } | undefined {
  if (!responseFormat || responseFormat.type === "text") return {};
  const { schema } = responseFormat;
  if (!schema || !sendsAsIs(schema)) return undefined;
  return {
    text: {
      format: {
        type: "json_schema",
        strict: true,
        name: responseFormat.name ?? "response",
        description: responseFormat.description,
        schema,
      },
    },
  };
}

interface TextRequest {
  body: ResponsesBody;
  warnings: SharedV3Warning[];
  /** The function tools' names: a call of an undeclared `parallel` tool is expanded. */
  toolNames: ReadonlySet<string>;
}

/**
 * The call's `tools` and `tool_choice` as `prepareResponsesTools` makes them for function
 * tools without provider options: nothing when no tool is offered, undefined (the SDK's model
 * sends the call) for a provider tool, a tool's OpenAI options, or a choice of a built-in's name.
 */
function toolFields(
  tools: LanguageModelV3CallOptions["tools"],
  toolChoice: LanguageModelV3CallOptions["toolChoice"],
): { tools?: FunctionTool[]; tool_choice?: ToolChoice } | undefined {
  if (!tools || tools.length === 0) return {};
  const functions: FunctionTool[] = [];
  for (const tool of tools) {
    if (tool.type !== "function" || hasOpenAIOptions(tool.providerOptions)) return undefined;
    functions.push({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      ...(tool.strict != null ? { strict: tool.strict } : {}),
    });
  }
  if (!toolChoice) return { tools: functions };
  if (toolChoice.type !== "tool") return { tools: functions, tool_choice: toolChoice.type };
  if (BUILT_IN_TOOL_CHOICES.has(toolChoice.toolName)) return undefined;
  return { tools: functions, tool_choice: { type: "function", name: toolChoice.toolName } };
}

function hasOpenAIOptions(options: SharedV3ProviderOptions | undefined): boolean {
  return options?.openai != null;
}

/** The request the SDK would send, when the call is one this reader handles. */
function plainTextRequest(
  modelId: string,
  options: LanguageModelV3CallOptions,
): TextRequest | undefined {
  const { responseFormat, tools, toolChoice, ...textOptions } = options;
  if (!setsOnlyTextOptions(textOptions)) return undefined;
  if (hasOpenAIOptions(options.providerOptions)) return undefined;
  const format = textFormat(responseFormat);
  if (!format) return undefined;
  const offered = toolFields(tools, toolChoice);
  if (!offered) return undefined;
  const reasoning = isReasoningModel(modelId);
  const input = responsesInput(options.prompt, reasoning ? "developer" : "system");
  if (!input) return undefined;
  // The SDK drops a temperature that reasoning models refuse, with a warning.
  const dropTemperature = reasoning && options.temperature != null;
  return {
    body: {
      model: modelId,
      input,
      temperature: dropTemperature ? undefined : options.temperature,
      max_output_tokens: options.maxOutputTokens,
      ...format,
      ...offered,
    },
    toolNames: new Set(offered.tools?.map((tool) => tool.name)),
    warnings: dropTemperature
      ? [
          {
            type: "unsupported",
            feature: "temperature",
            details: "temperature is not supported for reasoning models",
          },
        ]
      : [],
  };
}

/** The SDK's rule (getOpenAILanguageModelCapabilities): o-series, GPT-5 on but not gpt-N-chat. */
function isReasoningModel(modelId: string): boolean {
  if (/^o\d+(?:-|$)/.test(modelId)) return true;
  const gpt = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(modelId);
  if (!gpt) return false;
  const chatModel = gpt[2] === undefined && (gpt[3]?.startsWith("chat") ?? false);
  return Number(gpt[1]) >= 5 && !chatModel;
}

/** convertToOpenAIResponsesInput for text only; undefined when the prompt has anything else. */
function responsesInput(
  prompt: LanguageModelV3Prompt,
  systemRole: "system" | "developer",
): InputItem[] | undefined {
  const input: InputItem[] = [];
  for (const message of prompt) {
    if (hasOpenAIOptions(message.providerOptions)) return undefined;
    if (message.role === "system") {
      input.push({ role: systemRole, content: message.content });
      continue;
    }
    if (message.role === "tool") return undefined;
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type !== "text" || hasOpenAIOptions(part.providerOptions)) return undefined;
      texts.push(part.text);
    }
    if (message.role === "user") {
      input.push({ role: "user", content: texts.map((text) => ({ type: "input_text", text })) });
    } else {
      // The SDK sends each text part of an answer as an item of its own.
      for (const text of texts) {
        input.push({ role: "assistant", content: [{ type: "output_text", text }] });
      }
    }
  }
  return input;
}

/** What the errors of one call carry, as the SDK's do. */
interface CallContext extends RequestContext {
  /** The request body as the SDK reports it (no `stream`): in errors from stream events. */
  body: ResponsesBody;
  sent: ResponsesBody & { stream: true };
  toolNames: ReadonlySet<string>;
}

async function readTextStream(
  request: TextRequest,
  abortSignal: AbortSignal | undefined,
  connection: ProviderConnection,
): Promise<LanguageModelV3StreamResult> {
  const url = `${withoutTrailingSlash(connection.baseURL)}/responses`;
  const context: CallContext = {
    url,
    body: request.body,
    sent: { ...request.body, stream: true },
    toolNames: request.toolNames,
  };
  const response = await postForStream(context, abortSignal, connection);
  const { statusCode, responseHeaders } = response.context;
  const reader = createEventReader(response.body, { ...context, statusCode, responseHeaders });
  await reader.readUntilOutput();
  return {
    stream: reader.parts(request.warnings),
    request: { body: request.body },
    response: { headers: responseHeaders },
  };
}

// --- The event stream -------------------------------------------------------------------

type ResponsesEvent = JSONObject & { type: string };

interface ReadState {
  finishReason: LanguageModelV3FinishReason;
  usage: JSONObject | undefined;
  responseId: string | null;
  hasRefusal: boolean;
  /** An error part was sent: a later `response.completed` no longer sets the finish reason. */
  failed: boolean;
  messagePhase: JSONValue | undefined;
  /** Reasoning items started and not yet ended. */
  reasoning: Set<string>;
  serviceTier: string | undefined;
  reasoningContext: JSONValue | undefined;
  promptCacheDiagnostics: JSONValue | undefined;
  /** A function call was completed: the finish reason is `tool-calls`. */
  hasFunctionCall: boolean;
  /** Function calls under way, by output index. */
  toolCalls: Map<number, OngoingToolCall>;
  toolNames: ReadonlySet<string>;
}

interface OngoingToolCall {
  toolCallId: string;
  /** An undeclared `parallel` call: its arguments are held until it can be expanded. */
  buffered: string[] | undefined;
  async: JSONValue | undefined;
}

type Emit = (part: LanguageModelV3StreamPart) => void;

/** The event types the SDK counts as output: an error event after one is a part, not a throw. */
const OUTPUT_EVENTS: ReadonlySet<string> = new Set([
  "response.apply_patch_call_operation_diff.delta",
  "response.apply_patch_call_operation_diff.done",
  "response.code_interpreter_call_code.delta",
  "response.code_interpreter_call_code.done",
  "response.completed",
  "response.custom_tool_call_input.delta",
  "response.function_call_arguments.delta",
  "response.function_call_arguments.done",
  "response.image_generation_call.partial_image",
  "response.incomplete",
  "response.output_item.added",
  "response.output_item.done",
  "response.output_text.annotation.added",
  "response.output_text.delta",
  "response.refusal.delta",
  "response.refusal.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
  "response.reasoning_summary_text.delta",
]);

type StreamContext = CallContext & SharedStreamContext;

/**
 * The response body as stream parts. Like the SDK, the call waits for the first output event:
 * an error before it (a rate limit, a refused request) is thrown as an APICallError from
 * `doStream`, so it is retried or falls back like an HTTP failure.
 */
function createEventReader(body: BodyReader, context: StreamContext) {
  const state: ReadState = {
    finishReason: { unified: "other", raw: undefined },
    usage: undefined,
    responseId: null,
    hasRefusal: false,
    failed: false,
    messagePhase: undefined,
    reasoning: new Set(),
    serviceTier: undefined,
    reasoningContext: undefined,
    promptCacheDiagnostics: undefined,
    hasFunctionCall: false,
    toolCalls: new Map(),
    toolNames: context.toolNames,
  };
  const pending: LanguageModelV3StreamPart[] = [];
  const emit: Emit = (part) => pending.push(part);
  let awaitingOutput = true;
  let errorBeforeOutput: ResponsesEvent | undefined;

  function fail(error: unknown) {
    state.failed = true;
    state.finishReason = { unified: "error", raw: undefined };
    emit({ type: "error", error });
  }

  function onData(data: string) {
    if (data === "[DONE]" || errorBeforeOutput) return;
    const parsed = parseEvent(data, context);
    if (!parsed.ok) {
      awaitingOutput = false;
      fail(parsed.error);
      return;
    }
    const { event } = parsed;
    if (awaitingOutput && isErrorFrame(event)) {
      errorBeforeOutput = event;
      return;
    }
    if (!applyEvent(event, state, emit)) {
      awaitingOutput = false;
      fail(TypeValidationError.wrap({ value: event, cause: new Error(`malformed ${event.type}`) }));
      return;
    }
    if (awaitingOutput && OUTPUT_EVENTS.has(event.type)) awaitingOutput = false;
  }

  const source = sseSource(body, context, onData);

  return {
    async readUntilOutput(): Promise<void> {
      while (awaitingOutput && !source.ended) {
        await source.read();
        if (errorBeforeOutput) {
          source.cancel().catch(() => {});
          throw streamFailure(errorBeforeOutput, context);
        }
      }
    },

    parts(warnings: SharedV3Warning[]): ReadableStream<LanguageModelV3StreamPart> {
      pending.unshift({ type: "stream-start", warnings });
      return partsStream(source, pending, () => [finishPart(state)]);
    },
  };
}

const isNullishString = (value: unknown) => value == null || typeof value === "string";

type ParsedEvent = { ok: true; event: ResponsesEvent } | { ok: false; error: unknown };

/** One SSE data line as an event, or the error the SDK's parse step would report. */
function parseEvent(data: string, context: StreamContext): ParsedEvent {
  let value: JSONValue;
  try {
    value = JSON.parse(data) as JSONValue;
  } catch (cause) {
    return { ok: false, error: new JSONParseError({ text: data, cause }) };
  }
  if (isRecord(value) && typeof value.type === "string") {
    return { ok: true, event: value as ResponsesEvent };
  }
  if (isRecord(value) && Array.isArray(value.choices)) {
    return { ok: false, error: chatCompletionsMismatch(value, context) };
  }
  return { ok: false, error: TypeValidationError.wrap({ value, cause: new Error("no type") }) };
}

/** The base URL serves Chat Completions: the SDK's own explanation. */
function chatCompletionsMismatch(value: JSONObject, context: StreamContext): APICallError {
  return new APICallError({
    message:
      "Received a Chat Completions stream while using the OpenAI Responses API. The default OpenAI provider model uses the Responses API. If your custom baseURL targets a Chat Completions-compatible endpoint, use openai.chat('model-id') or createOpenAI(...).chat('model-id') instead. You can also use @ai-sdk/openai-compatible for OpenAI-compatible providers.",
    url: context.url,
    requestBodyValues: context.body,
    responseHeaders: context.responseHeaders,
    responseBody: JSON.stringify(value),
    data: value,
    isRetryable: false,
  });
}

function isValidUsage(usage: JSONValue | undefined): boolean {
  return (
    usage == null ||
    (isRecord(usage) &&
      typeof usage.input_tokens === "number" &&
      typeof usage.output_tokens === "number")
  );
}

function isDescribedError(error: JSONObject): boolean {
  return (
    typeof error.message === "string" && isNullishString(error.code) && isNullishString(error.param)
  );
}

/** `error` events come nested (`{ error: { type, message } }`) or flat (`{ message, code }`). */
function isValidErrorEvent(event: ResponsesEvent): boolean {
  if (typeof event.sequence_number !== "number") return false;
  const nested = event.error;
  return (
    (isRecord(nested) && typeof nested.type === "string" && isDescribedError(nested)) ||
    isDescribedError(event)
  );
}

function isValidFinalResponse(response: JSONValue | undefined): response is JSONObject {
  if (!isRecord(response) || !isValidUsage(response.usage)) return false;
  const details = response.incomplete_details;
  return details == null || (isRecord(details) && typeof details.reason === "string");
}

function isValidFailedEvent(event: ResponsesEvent): boolean {
  const response = event.response;
  if (!isValidFinalResponse(response) || typeof event.sequence_number !== "number") return false;
  const error = response.error;
  return error == null || (isRecord(error) && typeof error.message === "string");
}

/** The SDK throws for these before the first output event. */
function isErrorFrame(event: ResponsesEvent): boolean {
  if (event.type === "error") return isValidErrorEvent(event);
  return (
    event.type === "response.failed" &&
    isValidFailedEvent(event) &&
    isRecord(event.response) &&
    event.response.error != null
  );
}

type EventHandler = (event: ResponsesEvent, state: ReadState, emit: Emit) => boolean;

/**
 * The events of an answer, each as the SDK's doStream turns it into parts. Returns false
 * for an event that lacks a field the SDK requires. Function calls are read (decision 095);
 * provider tools' items, annotations and reasoning summaries cannot come in a call without
 * provider tools or provider options, and are skipped.
 */
const EVENT_HANDLERS = new Map<string, EventHandler>(
  Object.entries({
    "response.created": (event, state, emit) => {
      const response = event.response;
      if (
        !isRecord(response) ||
        typeof response.id !== "string" ||
        typeof response.created_at !== "number" ||
        typeof response.model !== "string"
      ) {
        return false;
      }
      state.responseId = response.id;
      emit({
        type: "response-metadata",
        id: response.id,
        timestamp: new Date(response.created_at * 1000),
        modelId: response.model,
      });
      return true;
    },
    "response.output_item.added": (event, state, emit) => {
      const item = event.item;
      if (!isRecord(item) || typeof event.output_index !== "number") return false;
      if (item.type === "message") {
        if (typeof item.id !== "string" || !isNullishString(item.phase)) return false;
        state.messagePhase = item.phase ?? undefined;
        emit({
          type: "text-start",
          id: item.id,
          providerMetadata: {
            openai: { itemId: item.id, ...(item.phase != null ? { phase: item.phase } : {}) },
          },
        });
      } else if (item.type === "function_call") {
        if (!isFunctionCallItem(item)) return false;
        const buffered = isUndeclaredParallelCall(item.name, state) ? [] : undefined;
        state.toolCalls.set(event.output_index, {
          toolCallId: item.call_id,
          buffered,
          async: item.async ?? undefined,
        });
        if (!buffered) emit({ type: "tool-input-start", id: item.call_id, toolName: item.name });
      } else if (item.type === "reasoning") {
        if (typeof item.id !== "string" || !isNullishString(item.encrypted_content)) return false;
        state.reasoning.add(item.id);
        emit({
          type: "reasoning-start",
          id: `${item.id}:0`,
          providerMetadata: {
            openai: { itemId: item.id, reasoningEncryptedContent: item.encrypted_content ?? null },
          },
        });
      }
      return true;
    },
    "response.output_item.done": (event, state, emit) => {
      const item = event.item;
      if (!isRecord(item) || typeof event.output_index !== "number") return false;
      if (item.type === "message") {
        if (typeof item.id !== "string" || !isNullishString(item.phase)) return false;
        const phase = item.phase ?? state.messagePhase;
        state.messagePhase = undefined;
        emit({
          type: "text-end",
          id: item.id,
          providerMetadata: { openai: { itemId: item.id, ...(phase != null ? { phase } : {}) } },
        });
      } else if (item.type === "function_call") {
        if (!isFunctionCallItem(item) || !isCallStatus(item.status)) return false;
        const ongoing = state.toolCalls.get(event.output_index);
        state.toolCalls.delete(event.output_index);
        state.hasFunctionCall = true;
        endToolCall(item, ongoing, state, emit);
      } else if (item.type === "reasoning") {
        if (typeof item.id !== "string" || !isNullishString(item.encrypted_content)) return false;
        if (state.reasoning.delete(item.id)) {
          emit({
            type: "reasoning-end",
            id: `${item.id}:0`,
            providerMetadata: {
              openai: {
                itemId: item.id,
                reasoningEncryptedContent: item.encrypted_content ?? null,
              },
            },
          });
        }
      }
      return true;
    },
    "response.function_call_arguments.delta": (event, state, emit) => {
      if (
        typeof event.item_id !== "string" ||
        typeof event.output_index !== "number" ||
        typeof event.delta !== "string"
      ) {
        return false;
      }
      const call = state.toolCalls.get(event.output_index);
      if (call?.buffered) call.buffered.push(event.delta);
      else if (call) emit({ type: "tool-input-delta", id: call.toolCallId, delta: event.delta });
      return true;
    },
    "response.function_call_arguments.done": (event) =>
      typeof event.item_id === "string" &&
      typeof event.output_index === "number" &&
      typeof event.arguments === "string",
    "response.output_text.delta": (event, _state, emit) => {
      if (typeof event.item_id !== "string" || typeof event.delta !== "string") return false;
      emit({ type: "text-delta", id: event.item_id, delta: event.delta });
      return true;
    },
    "response.refusal.delta": (event, state, emit) => {
      if (typeof event.item_id !== "string" || typeof event.delta !== "string") return false;
      state.hasRefusal = true;
      emit({ type: "text-delta", id: event.item_id, delta: event.delta });
      return true;
    },
    "response.refusal.done": (event, state) => {
      if (typeof event.item_id !== "string" || typeof event.refusal !== "string") return false;
      state.hasRefusal = true;
      return true;
    },
    "response.completed": finishResponse,
    "response.incomplete": finishResponse,
    "response.failed": (event, state, emit) => {
      if (!isValidFailedEvent(event) || !isRecord(event.response)) return false;
      const response = event.response;
      state.promptCacheDiagnostics = response.prompt_cache_diagnostics ?? undefined;
      const reason = incompleteReason(response);
      state.finishReason = {
        unified: reason ? unifiedFinishReason(reason, false, state.hasFunctionCall) : "error",
        raw: reason ?? "error",
      };
      state.usage = isRecord(response.usage) ? response.usage : undefined;
      if (isRecord(response.reasoning) && response.reasoning.context != null) {
        state.reasoningContext = response.reasoning.context;
      }
      if (!state.failed && response.error != null) {
        state.failed = true;
        const frame = {
          type: "response.failed",
          sequence_number: event.sequence_number,
          response: {
            error: response.error,
            incomplete_details: response.incomplete_details,
            service_tier: response.service_tier,
          },
        };
        emit({ type: "error", error: providerStreamError(frame) ?? frame });
      }
      return true;
    },
    error: (event, state, emit) => {
      if (!isValidErrorEvent(event)) return false;
      state.failed = true;
      state.finishReason = { unified: "error", raw: "error" };
      emit({ type: "error", error: providerStreamError(event) ?? event });
      return true;
    },
  } satisfies Record<string, EventHandler>),
);

// --- Function calls, as the SDK's doStream streams them ---------------------------------

type FunctionCallItem = JSONObject & {
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  async?: boolean | null;
  namespace?: string | null;
};

function isFunctionCallItem(item: JSONObject): item is FunctionCallItem {
  return (
    typeof item.id === "string" &&
    typeof item.call_id === "string" &&
    typeof item.name === "string" &&
    typeof item.arguments === "string" &&
    (item.async == null || typeof item.async === "boolean") &&
    isNullishString(item.namespace)
  );
}

const isCallStatus = (status: JSONValue | undefined) =>
  status === "in_progress" || status === "completed" || status === "incomplete";

/** The SDK's `parallelToolName`: a model may wrap several calls in one undeclared tool. */
const PARALLEL_TOOL = "parallel";
const RECIPIENT_PREFIX = "functions.";

function isUndeclaredParallelCall(toolName: string, state: ReadState): boolean {
  return toolName === PARALLEL_TOOL && !state.toolNames.has(PARALLEL_TOOL);
}

/** The end of one function call: its input's end and the call, or the calls it wraps. */
function endToolCall(
  item: FunctionCallItem,
  ongoing: OngoingToolCall | undefined,
  state: ReadState,
  emit: Emit,
): void {
  const buffered = ongoing
    ? ongoing.buffered
    : isUndeclaredParallelCall(item.name, state)
      ? []
      : undefined;
  const expanded = buffered ? expandParallelCall(item, state) : undefined;
  if (expanded) {
    for (const call of expanded) {
      emit({ type: "tool-input-start", id: call.toolCallId, toolName: call.toolName });
      emit({ type: "tool-input-delta", id: call.toolCallId, delta: call.input });
      emit({ type: "tool-input-end", id: call.toolCallId });
      emit(call);
    }
    return;
  }
  if (buffered) {
    emit({ type: "tool-input-start", id: item.call_id, toolName: item.name });
    const deltas =
      buffered.length > 0 ? buffered : item.arguments.length > 0 ? [item.arguments] : [];
    for (const delta of deltas) emit({ type: "tool-input-delta", id: item.call_id, delta });
  }
  const namespace = item.namespace ?? undefined;
  emit({
    type: "tool-input-end",
    id: item.call_id,
    ...(namespace !== undefined ? { providerMetadata: { openai: { namespace } } } : {}),
  });
  const async = item.async ?? ongoing?.async ?? undefined;
  emit({
    type: "tool-call",
    toolCallId: item.call_id,
    toolName: item.name,
    input: item.arguments,
    providerMetadata: {
      openai: {
        itemId: item.id,
        ...(async !== undefined ? { async } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
      },
    },
  });
}

/**
 * expandParallelToolCall: an undeclared `parallel` call whose arguments list uses of declared
 * tools (`{"tool_uses": [{"recipient_name": "functions.x", "parameters": {…}}]}`) is those
 * calls; anything else is left as the one call it is.
 */
function expandParallelCall(
  item: FunctionCallItem,
  state: ReadState,
): (LanguageModelV3StreamPart & { type: "tool-call" })[] | undefined {
  const parsed = parseJsonSecurely(item.arguments);
  if (parsed === undefined || !isJSONObject(parsed)) return undefined;
  const uses = parsed.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  const calls: (LanguageModelV3StreamPart & { type: "tool-call" })[] = [];
  for (const [index, use] of uses.entries()) {
    if (!isJSONObject(use)) return undefined;
    const recipient = use.recipient_name;
    const parameters = use.parameters;
    if (
      typeof recipient !== "string" ||
      !recipient.startsWith(RECIPIENT_PREFIX) ||
      !isJSONObject(parameters)
    ) {
      return undefined;
    }
    const toolName = recipient.slice(RECIPIENT_PREFIX.length);
    if (toolName.length === 0 || !state.toolNames.has(toolName)) return undefined;
    calls.push({
      type: "tool-call",
      toolCallId: `${item.call_id}_${index}`,
      toolName,
      input: JSON.stringify(parameters),
      providerMetadata: {
        openai: {
          parallelToolCall: {
            itemId: item.id,
            toolCallId: item.call_id,
            toolName: item.name,
            ...(index === 0 ? { input: item.arguments } : {}),
            index,
            count: uses.length,
          },
        },
      },
    });
  }
  return calls;
}

/**
 * JSON.parse that refuses what secure-json-parse (the SDK's `safeParseJSON`) refuses: an
 * object with a `__proto__` key, or a `constructor` key holding a `prototype`.
 */
function parseJsonSecurely(text: string): JSONValue | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const unsafe = (node: unknown): boolean => {
    if (node === null || typeof node !== "object") return false;
    if (Array.isArray(node)) return node.some(unsafe);
    const record = node as Record<string, unknown>;
    if (Object.hasOwn(record, "__proto__")) return true;
    const ctor = record.constructor;
    if (Object.hasOwn(record, "constructor") && ctor !== null && typeof ctor === "object") {
      if (Object.hasOwn(ctor, "prototype")) return true;
    }
    return Object.values(record).some(unsafe);
  };
  return unsafe(value) ? undefined : (value as JSONValue);
}

/** Unknown event types (response.in_progress, content_part.*) carry nothing a text call needs. */
function applyEvent(event: ResponsesEvent, state: ReadState, emit: Emit): boolean {
  const handler = EVENT_HANDLERS.get(event.type);
  return handler ? handler(event, state, emit) : true;
}

function finishResponse(event: ResponsesEvent, state: ReadState): boolean {
  const response = event.response;
  if (!isValidFinalResponse(response)) return false;
  state.promptCacheDiagnostics = response.prompt_cache_diagnostics ?? undefined;
  if (!state.failed) {
    const reason = incompleteReason(response);
    state.finishReason = {
      unified: unifiedFinishReason(reason, state.hasRefusal, state.hasFunctionCall),
      raw: reason,
    };
  }
  state.usage = isRecord(response.usage) ? response.usage : undefined;
  if (typeof response.service_tier === "string") state.serviceTier = response.service_tier;
  if (isRecord(response.reasoning) && response.reasoning.context != null) {
    state.reasoningContext = response.reasoning.context;
  }
  return true;
}

function incompleteReason(response: JSONObject): string | undefined {
  const details = response.incomplete_details;
  return isRecord(details) && typeof details.reason === "string" ? details.reason : undefined;
}

/** mapOpenAIResponseFinishReason. */
function unifiedFinishReason(
  reason: string | undefined,
  hasRefusal: boolean,
  hasFunctionCall: boolean,
): LanguageModelV3FinishReason["unified"] {
  if (reason === undefined) {
    if (hasFunctionCall) return "tool-calls";
    return hasRefusal ? "content-filter" : "stop";
  }
  if (reason === "max_output_tokens") return "length";
  if (reason === "content_filter") return "content-filter";
  return hasFunctionCall ? "tool-calls" : "other";
}

/** convertOpenAIResponsesUsage. */
function convertUsage(usage: JSONObject | undefined): LanguageModelV3Usage {
  if (!usage) return noUsage();
  const inputTokens = usage.input_tokens as number;
  const outputTokens = usage.output_tokens as number;
  const inputDetails = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const cachedTokens = numberOr(inputDetails.cached_tokens, 0);
  const cacheWriteTokens = numberOr(inputDetails.cache_write_tokens, undefined);
  const reasoningTokens = numberOr(outputDetails.reasoning_tokens, 0);
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens - cachedTokens - (cacheWriteTokens ?? 0),
      cacheRead: cachedTokens,
      cacheWrite: cacheWriteTokens,
    },
    outputTokens: {
      total: outputTokens,
      text: outputTokens - reasoningTokens,
      reasoning: reasoningTokens,
    },
    raw: usage,
  };
}

function numberOr<T>(value: JSONValue | undefined, fallback: T): number | T {
  return typeof value === "number" ? value : fallback;
}

function finishPart(state: ReadState): LanguageModelV3StreamPart {
  return {
    type: "finish",
    finishReason: state.finishReason,
    usage: convertUsage(state.usage),
    providerMetadata: {
      openai: {
        responseId: state.responseId,
        ...(state.serviceTier !== undefined ? { serviceTier: state.serviceTier } : {}),
        ...(state.reasoningContext !== undefined
          ? { reasoningContext: state.reasoningContext }
          : {}),
        ...(state.promptCacheDiagnostics !== undefined
          ? { promptCacheDiagnostics: state.promptCacheDiagnostics }
          : {}),
      },
    },
  };
}

// --- Errors in the event stream, as the SDK's openai-stream-error.ts makes them ------------

interface StreamError {
  message: string;
  code: string | number | undefined;
  type: string | undefined;
}

function parseStreamError(frame: JSONObject): StreamError | undefined {
  const stringOrNumber = (value: JSONValue | undefined) =>
    typeof value === "string" || typeof value === "number" ? value : undefined;
  if (frame.type === "response.failed") {
    const response = isRecord(frame.response) ? frame.response : undefined;
    const error = isRecord(response?.error) ? response.error : undefined;
    return typeof error?.message === "string"
      ? { message: error.message, code: stringOrNumber(error.code), type: "response.failed" }
      : undefined;
  }
  const nested = isRecord(frame.error) ? frame.error : undefined;
  const error = nested ?? frame;
  const described =
    nested !== undefined || typeof error.type === "string" || "code" in error || "param" in error;
  return typeof error.message === "string" && described
    ? {
        message: error.message,
        code: stringOrNumber(error.code),
        type: typeof error.type === "string" ? error.type : undefined,
      }
    : undefined;
}

const isHttpErrorStatus = (value: number) =>
  Number.isInteger(value) && value >= 400 && value <= 599;

/** An HTTP status for an error that came inside a 200 stream: from its code, else its words. */
function statusOf(error: StreamError): number {
  if (typeof error.code === "number" && isHttpErrorStatus(error.code)) return error.code;
  if (typeof error.code === "string" && /^\d{3}$/.test(error.code)) {
    const status = Number(error.code);
    if (isHttpErrorStatus(status)) return status;
  }
  const words = [error.code, error.type]
    .filter((value) => value !== undefined)
    .join(" ")
    .toLowerCase();
  if (["insufficient_quota", "rate_limit"].some((term) => words.includes(term))) return 429;
  if (words.includes("authentication")) return 401;
  if (words.includes("permission")) return 403;
  if (words.includes("not_found")) return 404;
  if (["invalid", "bad_request", "context_length"].some((term) => words.includes(term))) {
    return 400;
  }
  if (words.includes("overload")) return 503;
  if (words.includes("timeout")) return 504;
  return 500;
}

function isRetryableStreamError(error: StreamError, status: number): boolean {
  if (error.code === "insufficient_quota" || error.type === "insufficient_quota") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** An error event after output: the SDK's part carries this plain object, not an Error. */
function providerStreamError(frame: JSONObject) {
  const error = parseStreamError(frame);
  if (!error) return undefined;
  const statusCode = statusOf(error);
  return {
    message: error.message,
    type: error.type,
    code: error.code,
    statusCode,
    isRetryable: isRetryableStreamError(error, statusCode),
    data: frame,
  };
}

/** An error event before any output: thrown from doStream like an HTTP failure. */
function streamFailure(frame: ResponsesEvent, context: StreamContext): APICallError {
  const error = parseStreamError(frame);
  const statusCode = error ? statusOf(error) : 500;
  return new APICallError({
    message: error?.message ?? "OpenAI stream failed before any output was generated",
    url: context.url,
    requestBodyValues: context.body,
    statusCode,
    responseHeaders: context.responseHeaders,
    responseBody: JSON.stringify(frame),
    data: frame,
    isRetryable: error ? isRetryableStreamError(error, statusCode) : true,
  });
}

import { setTimeout as sleep } from "node:timers/promises";
import type {
  ImageModelV3,
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import {
  estimateTokens,
  GENERATED_IMAGE_MAX_BYTES,
  type GENERATED_IMAGE_MEDIA_TYPES,
  IMAGE_PROMPT_MAX_CHARS,
  NO_CREDITS,
  priceCall,
  type TAgentRole,
  type TTokenUsage,
} from "@cohort/contracts";
import type { z } from "zod";
import { AppError } from "../../platform/errors";
import { withoutNul, withoutNulDeep } from "../../platform/nul";
import { loadAiSdk } from "./ai-sdk";
import {
  abortedError,
  type CallFailure,
  classifyFailure,
  describeFailure,
  exhaustedError,
  InvalidOutputError,
  interruptedError,
} from "./call-failures";
import type { CatalogueModel } from "./catalogue-schema";
import { type ModelResolver, messageText, toolsText } from "./estimate-model-call";
import type {
  CallSettledEvent,
  GatewayLogger,
  GatewayMessage,
  GatewayTool,
  GatewayToolCall,
  MadeImage,
  ModelCallInput,
  ModelCallResult,
  StreamModelInput,
} from "./gateway";
import type { ModelsConfig } from "./models-config";
import type { HealthTracker } from "./provider-health";
import type { ModelTarget, ResolvedModel } from "./providers";
import type { SimulatorPersona } from "./simulator/compose-answer";

/**
 * The model gateway's calling side: one call through the fallback chain, each target tried
 * with retries and backoff that honour Retry-After, a time-out per attempt, abort end to end,
 * usage, price and per-provider health. Which model and chain is `estimate-model-call.ts`.
 */

/** What labels a simulated picture wherever it is shown (decision 064). */
export const SIMULATED_IMAGE_NOTE =
  "_Simulated image: no image provider is configured, so the built-in simulator drew this picture._";

const SVG_START = /^\s*(?:<\?xml[^>]*>\s*)?<svg[\s>]/;

/**
 * The image's type from its bytes, never from what the provider says (the SDK calls
 * anything it does not recognise PNG): a file that is none of these is not kept.
 */
function imageTypeOf(bytes: Uint8Array): (typeof GENERATED_IMAGE_MEDIA_TYPES)[number] | null {
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && new TextDecoder().decode(bytes.subarray(8, 12)) === "WEBP")
    return "image/webp";
  return SVG_START.test(new TextDecoder().decode(bytes.subarray(0, 256))) ? "image/svg+xml" : null;
}

/** The picture's prompt: the caller's, else the last thing the user said; capped. */
function imagePromptOf(input: ModelCallInput): string {
  const prompt =
    input.imagePrompt ?? input.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  return withoutNul(prompt).trim().slice(0, IMAGE_PROMPT_MAX_CHARS);
}

/** The Markdown that shows a made image: the picture, then who made it. */
export function imageMarkdown(url: string, image: Omit<MadeImage, "bytes">): string {
  const alt = image.prompt
    .replace(/[[\]()\\]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 120);
  const note = image.simulated
    ? SIMULATED_IMAGE_NOTE
    : `_Image made by ${image.modelName} (${image.providerModel})._`;
  return `![${alt || "Generated image"}](${url})\n\n${note}`;
}

/** Thrown from inside an attempt when the caller's onDelta throws: a bug, not a provider failure. */
class ConsumerError extends Error {
  constructor(readonly original: unknown) {
    super("onDelta threw");
  }
}

const PERSONA_OF_ROLE: Record<TAgentRole, SimulatorPersona> = {
  strategist: "strategist",
  coder: "coder",
  designer: "designer",
  critic: "critic",
};

/** A call's stream as the gateway reads it. */
type CallPart =
  | { type: "delta"; text: string }
  | { type: "tool-call"; call: GatewayToolCall }
  | {
      type: "finish";
      finishReason: string;
      /** undefined when the provider sent no token counts. */
      usage: TTokenUsage | undefined;
    }
  | { type: "error"; error: unknown };

interface CallSettings {
  temperature: number | undefined;
  maxOutputTokens: number;
  abortSignal: AbortSignal;
  providerOptions?: SharedV3ProviderOptions;
  /** Structured output: the JSON schema the answer must follow (the provider's own mode). */
  responseFormat?: LanguageModelV3CallOptions["responseFormat"];
}

/**
 * What a structured call asks of the model, and how its whole answer becomes the value.
 * Parsed inside the attempt, so an answer in the wrong format fails over like any failure.
 */
export interface StructuredOutput {
  responseFormat: LanguageModelV3CallOptions["responseFormat"];
  parse(text: string): unknown;
}

/**
 * A zod schema's JSON schema, as the AI SDK sends it to providers: built once per schema. The
 * promise while it is built, the schema itself once it is, so a call with a built one starts
 * without waiting a tick.
 */
const jsonSchemas = new WeakMap<z.ZodType, JSONSchema7 | Promise<JSONSchema7>>();

function jsonSchemaOf(schema: z.ZodType): JSONSchema7 | Promise<JSONSchema7> {
  const known = jsonSchemas.get(schema);
  if (known) return known;
  const building = loadAiSdk().then(async (sdk) => {
    const json = await sdk.zodSchema(schema).jsonSchema;
    jsonSchemas.set(schema, json);
    return json;
  });
  jsonSchemas.set(schema, building);
  return building;
}

/**
 * What a structured call asks of the model: at once when its JSON schema was built before
 * (the plan's schemas are constants), so the provider request goes out in the caller's own
 * tick, before anything the caller does next (the plan's step row, decision 090).
 */
export function structuredOutput(
  schema: z.ZodType,
  name: string | undefined,
  description: string | undefined,
): StructuredOutput | Promise<StructuredOutput> {
  const json = jsonSchemaOf(schema);
  return json instanceof Promise
    ? json.then((built) => outputOf(schema, built, name, description))
    : outputOf(schema, json, name, description);
}

function outputOf(
  schema: z.ZodType,
  json: JSONSchema7,
  name: string | undefined,
  description: string | undefined,
): StructuredOutput {
  return {
    responseFormat: {
      type: "json",
      schema: json,
      ...(name ? { name } : {}),
      ...(description ? { description } : {}),
    },
    parse(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new InvalidOutputError("the answer is not JSON");
      }
      // U+0000 cannot be stored (PostgreSQL text); a `\u0000` escape becomes one only here.
      // Stripped before the check, so what is checked is what the caller gets.
      const parsed = schema.safeParse(withoutNulDeep(value));
      if (!parsed.success) throw new InvalidOutputError("the answer does not match the schema");
      return parsed.data;
    },
  };
}

const usageOf = (input: number | undefined, output: number | undefined) =>
  input !== undefined && output !== undefined
    ? { inputTokens: input, outputTokens: output }
    : undefined;

/**
 * A call's stream straight from the provider's model (the SDK's provider seam, LanguageModelV3):
 * the provider parses and validates its wire format once; `streamText`'s chain of stream
 * stages on top (step control, tool handling, telemetry, partial-JSON parsing of every chunk)
 * cost about as much CPU again per chunk and give a call nothing. A profile under load put
 * the SDK's per-chunk chain at about half of a run's CPU. Structured output (the plan) is the
 * same stream with the provider's JSON mode on, parsed once at its end (decision 026); its text
 * so far goes to `onPartial` as it grows (the plan's preview, decision 079).
 */
async function* callParts(
  model: LanguageModelV3,
  system: string | undefined,
  messages: readonly GatewayMessage[],
  settings: CallSettings,
  tools: readonly GatewayTool[] | undefined,
): AsyncGenerator<CallPart> {
  const prompt: LanguageModelV3Prompt = [
    ...(system ? [{ role: "system" as const, content: system }] : []),
    ...messages.flatMap((m): LanguageModelV3Prompt => {
      if (m.role === "user") {
        return [{ role: "user" as const, content: [{ type: "text" as const, text: m.content }] }];
      }
      if (!m.tools || m.tools.length === 0) {
        return [
          { role: "assistant" as const, content: [{ type: "text" as const, text: m.content }] },
        ];
      }
      return [
        {
          role: "assistant" as const,
          content: [
            ...(m.content ? [{ type: "text" as const, text: m.content }] : []),
            ...m.tools.map((t) => ({
              type: "tool-call" as const,
              toolCallId: t.toolCallId,
              toolName: t.toolName,
              input: parsedInput(t.input),
            })),
          ],
        },
        {
          role: "tool" as const,
          content: m.tools.map((t) => ({
            type: "tool-result" as const,
            toolCallId: t.toolCallId,
            toolName: t.toolName,
            output: t.isError
              ? { type: "error-text" as const, value: t.output }
              : { type: "text" as const, value: t.output },
          })),
        },
      ];
    }),
  ];
  const offered =
    tools && tools.length > 0
      ? {
          tools: tools.map((t) => ({
            type: "function" as const,
            name: t.name,
            description: t.description,
            inputSchema: t.inputSchema,
          })),
          toolChoice: { type: "auto" as const },
        }
      : {};
  const { stream } = await model.doStream({ prompt, ...settings, ...offered });
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      finished = done;
      if (done) return;
      if (part.type === "text-delta") yield { type: "delta", text: part.delta };
      else if (part.type === "tool-call") {
        yield {
          type: "tool-call",
          call: { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input },
        };
      } else if (part.type === "error") yield { type: "error", error: part.error };
      else if (part.type === "finish") {
        yield {
          type: "finish",
          finishReason: part.finishReason.unified,
          usage: usageOf(part.usage.inputTokens.total, part.usage.outputTokens.total),
        };
      }
    }
  } finally {
    // Left early (a failure, the caller's onDelta threw): the provider's response is closed.
    if (finished) reader.releaseLock();
    else reader.cancel().catch(() => {});
  }
}

/** No parts: an image call's answer is its text, made before the stream is read. */
async function* emptyParts(): AsyncGenerator<CallPart> {}

/** A tool call's arguments as the prompt carries them (a JSON value; text that is not JSON as is). */
function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

export interface ModelCallerDeps {
  config: ModelsConfig;
  log?: GatewayLogger | undefined;
  health: HealthTracker;
  resolver: ModelResolver;
  onCallSettled?: ((event: CallSettledEvent) => void) | undefined;
}

export interface ModelCaller {
  /** One call: a streamed answer, or a structured one when `output` is given. */
  call(
    input: StreamModelInput,
    output: StructuredOutput | undefined,
  ): Promise<ModelCallResult & { object: unknown }>;
}

export function createModelCaller(deps: ModelCallerDeps): ModelCaller {
  const { config, log, health, onCallSettled } = deps;
  const { resolveOrThrow, systemFor, maxOutputFor, simulatorCharges } = deps.resolver;

  interface AttemptOutcome {
    text: string;
    /** performance.now() of this attempt's first token. */
    firstTokenAt: number | null;
    usage: TTokenUsage;
    usageEstimated: boolean;
    finishReason: string;
    object: unknown;
    toolCalls: GatewayToolCall[];
  }

  interface CallState {
    startedAt: number;
    /** Text reached the caller: from here on a failure can no longer fall back. */
    deltasForwarded: boolean;
  }

  /**
   * Hands text to the caller's onDelta: from then on the call cannot fall back to another
   * attempt, and what onDelta throws is the caller's bug (ConsumerError), not a provider's
   * failure.
   */
  function forwardText(input: StreamModelInput, call: CallState, text: string): void {
    if (!input.onDelta) return;
    call.deltasForwarded = true;
    try {
      input.onDelta(text);
    } catch (error) {
      throw new ConsumerError(error);
    }
  }

  async function runAttempt(
    target: ModelTarget,
    resolved: ResolvedModel,
    input: StreamModelInput,
    output: StructuredOutput | undefined,
    call: CallState,
    timeoutMs: number,
  ): Promise<AttemptOutcome> {
    const model = resolved.model;
    const timer = new AbortController();
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      timer.abort(new DOMException(`No answer within ${timeoutMs} ms`, "TimeoutError"));
    }, timeoutMs);
    const signal = input.abortSignal
      ? AbortSignal.any([input.abortSignal, timer.signal])
      : timer.signal;
    const system = systemFor(model, input);
    const persona: SimulatorPersona | undefined = input.role
      ? PERSONA_OF_ROLE[input.role]
      : model.id === "covision"
        ? "vision"
        : undefined;
    const attemptStarted = performance.now();
    let attemptFirstToken: number | null = null;
    let text = "";
    try {
      const providerOptions =
        persona && target.provider === "simulator" ? { simulator: { persona } } : undefined;
      const settings = {
        temperature: input.temperature ?? model.temperature,
        maxOutputTokens: maxOutputFor(model, input.maxOutputTokens),
        abortSignal: signal,
        ...(providerOptions ? { providerOptions } : {}),
        ...(output ? { responseFormat: output.responseFormat } : {}),
      };
      const toolCalls: GatewayToolCall[] = [];
      let usage: TTokenUsage | undefined;
      let finishReason = "unknown";
      if (target.imageModel) {
        if (output) throw new InvalidOutputError("an image model gives no structured answer");
        const prompt = imagePromptOf(input);
        text = await makeImage(target, target.imageModel, model, prompt, input, signal);
        attemptFirstToken = performance.now();
        usage = { inputTokens: estimateTokens(prompt), outputTokens: 0 };
        finishReason = "stop";
        forwardText(input, call, text);
      }
      const stream = target.imageModel
        ? emptyParts()
        : callParts(
            target.languageModel,
            system,
            input.messages,
            settings,
            output ? undefined : input.tools,
          );
      for await (const part of stream) {
        if (part.type === "delta") {
          // U+0000 cannot be stored (PostgreSQL text); it never leaves the gateway.
          const delta = withoutNul(part.text);
          if (delta.length === 0) continue;
          text += delta;
          attemptFirstToken ??= performance.now();
          forwardText(input, call, delta);
          if (output && input.onPartial) {
            try {
              input.onPartial(text);
            } catch (error) {
              throw new ConsumerError(error);
            }
          }
        } else if (part.type === "tool-call") {
          toolCalls.push({ ...part.call, input: withoutNul(part.call.input) });
        } else if (part.type === "error") {
          throw part.error;
        } else {
          finishReason = part.finishReason;
          usage = part.usage;
        }
      }
      if (signal.aborted) throw signal.reason;
      const parsed = output?.parse(text);
      const latency = performance.now() - attemptStarted;
      health.success(
        target.provider,
        latency,
        attemptFirstToken === null ? null : attemptFirstToken - attemptStarted,
      );
      if (target.keySource === "user") health.userKeyCall(target.provider, true);
      return {
        text,
        firstTokenAt: attemptFirstToken,
        usage: usage ?? {
          inputTokens: estimateTokens(
            [system ?? "", ...input.messages.map(messageText), ...toolsText(input)].join("\n"),
          ),
          outputTokens: estimateTokens(text),
        },
        usageEstimated: usage === undefined,
        finishReason,
        object: parsed,
        toolCalls,
      };
    } catch (error) {
      if (error instanceof ConsumerError) throw error;
      if (input.abortSignal?.aborted && !timedOut) throw abortedError(model.name);
      const failure = classifyFailure(error, target, {
        timedOut,
        deltasSeen: call.deltasForwarded,
        timeoutMs,
      });
      // A user's bad key says nothing about the provider's health for everyone else, nor
      // does their own OpenAI-compatible server; an outage seen on their key does.
      if (target.keySource === "user") health.userKeyCall(target.provider, false);
      const outage =
        failure.kind === "server_error" || failure.kind === "network" || failure.kind === "timeout";
      const countsForHealth =
        target.keySource !== "user" || (outage && target.provider !== "openai-compatible");
      if (countsForHealth) {
        health.failure(target.provider, failure.kind, describeFailure(failure, timeoutMs));
      }
      throw failure;
    } finally {
      clearTimeout(timeout);
    }
  }

  /**
   * One image through the AI SDK's image generation (decision 064), checked, then stored by
   * the caller (or inlined): the text that shows it. The gateway's own retries and fallback
   * apply, so the SDK's are off.
   */
  async function makeImage(
    target: ModelTarget,
    imageModel: ImageModelV3,
    model: CatalogueModel,
    prompt: string,
    input: ModelCallInput,
    signal: AbortSignal,
  ): Promise<string> {
    if (prompt.length === 0) throw new InvalidOutputError("there is nothing to draw");
    const sdk = await loadAiSdk();
    const { image } = await sdk.generateImage({
      model: imageModel,
      prompt,
      n: 1,
      abortSignal: signal,
      maxRetries: 0,
    });
    const bytes = image.uint8Array;
    if (bytes.byteLength > GENERATED_IMAGE_MAX_BYTES) {
      throw new InvalidOutputError("the image is larger than Cohort keeps");
    }
    const known = imageTypeOf(bytes);
    if (!known) {
      throw new InvalidOutputError("the answer is not a PNG, JPEG, GIF, WebP or SVG image");
    }
    const made: MadeImage = {
      bytes,
      mediaType: known,
      prompt,
      modelId: model.id,
      modelName: model.name,
      provider: target.provider,
      providerModel: target.providerModel,
      simulated: target.provider === "simulator",
    };
    let url: string;
    try {
      url = input.storeImage
        ? (await input.storeImage(made)).url
        : `data:${known};base64,${Buffer.from(bytes).toString("base64")}`;
    } catch (error) {
      // Our storage failing is no provider's failure: no retry, no fallback.
      throw new ConsumerError(error);
    }
    const { bytes: _bytes, ...described } = made;
    return imageMarkdown(url, described);
  }

  function isFailure(value: unknown): value is CallFailure {
    return typeof value === "object" && value !== null && "kind" in value && "retryable" in value;
  }

  function backoff(failure: CallFailure, attempt: number): number | null {
    if (failure.retryAfterMs !== undefined) {
      return failure.retryAfterMs <= config.retryMaxDelayMs ? failure.retryAfterMs : null;
    }
    const exponential = config.retryBaseDelayMs * 2 ** (attempt - 1);
    // Jitter spreads retries from parallel calls so they do not hit the provider in step.
    const jittered = exponential * (0.75 + Math.random() * 0.5);
    return Math.min(config.retryMaxDelayMs, Math.round(jittered));
  }

  async function call(
    input: StreamModelInput,
    output: StructuredOutput | undefined,
  ): Promise<ModelCallResult & { object: unknown }> {
    const resolved = resolveOrThrow(input.modelId, input.userKeys);
    const model = resolved.model;
    const timeoutMs = input.timeoutMs ?? config.callTimeoutMs;
    const state: CallState = { startedAt: performance.now(), deltasForwarded: false };
    const failures: CallFailure[] = [];
    try {
      for (const target of resolved.targets) {
        for (let attempt = 1; attempt <= config.maxAttempts; attempt++) {
          if (input.abortSignal?.aborted) throw abortedError(model.name);
          try {
            const outcome = await runAttempt(target, resolved, input, output, state, timeoutMs);
            const result: ModelCallResult & { object: unknown } = {
              text: outcome.text,
              usage: outcome.usage,
              usageEstimated: outcome.usageEstimated,
              latencyMs: Math.round(performance.now() - state.startedAt),
              ttftMs:
                outcome.firstTokenAt === null
                  ? null
                  : Math.round(outcome.firstTokenAt - state.startedAt),
              modelId: model.id,
              modelName: model.name,
              provider: target.provider,
              providerModel: target.providerModel,
              simulated: target.provider === "simulator",
              keySource: target.keySource,
              credits:
                target.keySource === "user" ||
                (target.provider === "simulator" && !simulatorCharges)
                  ? NO_CREDITS
                  : priceCall(model, outcome.usage),
              ...(target.provider === "simulator" && !simulatorCharges
                ? { wouldBeCredits: priceCall(model, outcome.usage) }
                : {}),
              finishReason: outcome.finishReason,
              failedAttempts: failures.length,
              ...(outcome.toolCalls.length > 0 ? { toolCalls: outcome.toolCalls } : {}),
              object: outcome.object,
            };
            onCallSettled?.({ ok: true, input, result });
            return result;
          } catch (error) {
            if (!isFailure(error)) throw error;
            failures.push(error);
            log?.warn(
              {
                model: model.id,
                provider: error.provider,
                providerModel: error.providerModel,
                attempt,
                kind: error.kind,
                status: error.status,
                detail: error.detail,
              },
              "model call attempt failed",
            );
            if (
              error.kind === "interrupted" ||
              (state.deltasForwarded && error.kind === "timeout")
            ) {
              throw interruptedError(model.name, error, timeoutMs);
            }
            // A refused user key: no retry, no other provider, no hosted key in its place.
            if (error.endsCall) throw exhaustedError(model.name, failures, timeoutMs);
            if (!error.retryable || attempt === config.maxAttempts) break;
            const delay = backoff(error, attempt);
            if (delay === null) break;
            await sleep(delay, undefined, { signal: input.abortSignal }).catch(() => {
              throw abortedError(model.name);
            });
          }
        }
      }
      throw exhaustedError(model.name, failures, timeoutMs);
    } catch (error) {
      const appError =
        error instanceof ConsumerError
          ? error.original
          : error instanceof AppError
            ? error
            : undefined;
      if (appError instanceof AppError) onCallSettled?.({ ok: false, input, error: appError });
      throw appError ?? error;
    }
  }

  return { call };
}

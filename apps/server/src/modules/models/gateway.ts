import type { JSONSchema7 } from "@ai-sdk/provider";
import {
  AGENT_ROLE_NAMES,
  type GENERATED_IMAGE_MEDIA_TYPES,
  type Hundredths,
  MODEL_ERROR_CODES,
  type TAgentRole,
  type TCreditLimitKind,
  type TProviderId,
  type TRunPlan,
  type TTokenUsage,
  ZRunPlan,
} from "@cohort/contracts";
import type { z } from "zod";
import { AppError } from "../../platform/errors";
import { createModelCaller, structuredOutput } from "./call-model";
import type { Catalogue } from "./catalogue";
import type { CatalogueModel } from "./catalogue-schema";
import { createModelResolver } from "./estimate-model-call";
import type { ModelsConfig } from "./models-config";
import { createHealthTracker, type HealthTracker } from "./provider-health";
import type {
  FoundLocalServers,
  KeySource,
  Providers,
  ResolvedModel,
  UserProviderKeys,
} from "./providers";

/**
 * Every model call in Cohort goes through here: catalogue lookup, the provider fallback chain,
 * retries with backoff that honour Retry-After, a time-out per request, abort end to end,
 * usage, price and per-provider health. Built without Fastify so benchmarks and scripts can
 * use it directly.
 */

export interface GatewayMessage {
  role: "user" | "assistant";
  content: string;
  /**
   * An assistant turn that asked for tools (decision 058): its calls, each with the
   * result the engine sent back (the model sees the calls, then a tool message with them).
   */
  tools?: readonly GatewayToolExchange[];
}

/** A tool a call may ask for: its name, description and input's JSON schema. */
export interface GatewayTool {
  name: string;
  description: string;
  inputSchema: JSONSchema7;
}

/** A tool call the model made: its id, the tool, and its arguments as JSON text. */
export interface GatewayToolCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/** A tool call with the result the model is sent (text, capped and marked by the engine). */
export interface GatewayToolExchange extends GatewayToolCall {
  output: string;
  isError: boolean;
}

export interface ModelCallInput {
  /** A catalogue id: `coreason`, `gpt-4.1`, `local:llama3.1`. */
  modelId: string;
  messages: readonly GatewayMessage[];
  /** Added after the model's and the role's system prompts. */
  system?: string;
  /** The agent role the call works for: adds the role's system prompt. */
  role?: TAgentRole;
  temperature?: number;
  /** Capped at the model's maximum; defaults to it. */
  maxOutputTokens?: number;
  /** A stop from the user: aborts the request to the provider at once. */
  abortSignal?: AbortSignal;
  /** Keys the user brought; calls on them cost no credits. */
  userKeys?: UserProviderKeys;
  /** Overrides MODEL_CALL_TIMEOUT_MS for this call (per request to a provider). */
  timeoutMs?: number;
  /** For an image model (decision 064): what to draw; else the last user message. */
  imagePrompt?: string;
  /**
   * For an image model: keeps the image and answers the path it is served at. Without it
   * the image is put into the text as a data URL (CoChat, the public API).
   */
  storeImage?: (image: MadeImage) => Promise<{ url: string }>;
}

/** An image an image model made (decision 064), before it is stored. */
export interface MadeImage {
  bytes: Uint8Array;
  mediaType: (typeof GENERATED_IMAGE_MEDIA_TYPES)[number];
  prompt: string;
  modelId: string;
  modelName: string;
  provider: TProviderId | "simulator";
  providerModel: string;
  simulated: boolean;
}

export interface StreamModelInput extends ModelCallInput {
  /** Each piece of text as it arrives. After the first, a failure no longer falls back. */
  onDelta?: (delta: string) => void;
  /** Tools the model may ask for (the engine runs them; decision 058). */
  tools?: readonly GatewayTool[];
  /**
   * A structured call's answer so far, each time it grows (the plan's preview, decision 079).
   * Unlike `onDelta` it keeps the fallback: an attempt that fails over starts again, so the
   * text passed may stop extending the one before.
   */
  onPartial?: (textSoFar: string) => void;
}

export interface ModelCallResult {
  text: string;
  usage: TTokenUsage;
  /** The provider sent no token counts, so they were estimated from the text. */
  usageEstimated: boolean;
  /** From the call's start to its last token, retries included. */
  latencyMs: number;
  /** From the call's start to its first token; null when no text came. */
  ttftMs: number | null;
  modelId: string;
  modelName: string;
  provider: TProviderId | "simulator";
  providerModel: string;
  simulated: boolean;
  keySource: KeySource;
  /** What the call costs: 0 on the user's own key, and on the simulator unless it charges. */
  credits: Hundredths;
  /** A simulated call that is not charged: its price at the catalogue's rates (decision 053). */
  wouldBeCredits?: Hundredths;
  /** The caller stopped the text where its credit hold could not grow (decision 053). */
  stoppedAt?: TCreditLimitKind;
  /**
   * The caller cut the text because its run was halted (a user's Stop, a failing run): the
   * text shown is kept and charged like a call stopped at a limit (decision 053).
   */
  halted?: boolean;
  finishReason: string;
  /** Failed attempts before the one that answered. */
  failedAttempts: number;
  /** The tools the model asked for (only when the call offered tools and it asked). */
  toolCalls?: GatewayToolCall[];
}

export interface StructuredCallInput<T> extends ModelCallInput {
  schema: z.ZodType<T>;
  /** See StreamModelInput.onPartial. */
  onPartial?: (textSoFar: string) => void;
  schemaName?: string;
  schemaDescription?: string;
}

export interface PlanInput extends Omit<ModelCallInput, "messages" | "role"> {
  /** The user's message the run is about. */
  request: string;
  /** Earlier turns of the session, oldest first. */
  history?: readonly GatewayMessage[];
  /** manual_agent_selection: the roles the user chose; the plan uses only these. */
  allowedRoles?: readonly TAgentRole[];
}

export interface CallEstimate {
  model: CatalogueModel;
  maxOutputTokens: number;
  inputTokensEstimate: number;
  /** What a credit reservation holds; 0 when the call runs only on the user's keys. */
  worstCaseCredits: Hundredths;
  billable: boolean;
  simulated: boolean;
}

export type CallSettledEvent =
  | { ok: true; input: ModelCallInput; result: ModelCallResult }
  | { ok: false; input: ModelCallInput; error: AppError };

export interface GatewayLogger {
  warn(details: object, message: string): void;
}

export interface GatewayOptions {
  config: ModelsConfig;
  /** Built from config when not given. */
  catalogue?: Catalogue;
  log?: GatewayLogger;
  /** Called once per call, after it succeeds or fails (usage stats, telemetry). */
  onCallSettled?: (event: CallSettledEvent) => void;
  /** Local model servers found on loopback ports: they serve the local models (decision 056). */
  localServers?: FoundLocalServers;
}

export interface ModelGateway {
  readonly catalogue: Catalogue;
  readonly providers: Providers;
  readonly health: HealthTracker;
  /** The fallback chain a call would use now. */
  resolve(modelId: string, userKeys?: UserProviderKeys): ResolvedModel | undefined;
  /** For credit reservations: the worst case of a call before it starts. */
  estimateCall(input: ModelCallInput): CallEstimate;
  streamModel(input: StreamModelInput): Promise<ModelCallResult>;
  generateStructured<T>(input: StructuredCallInput<T>): Promise<ModelCallResult & { object: T }>;
  generatePlan(input: PlanInput): Promise<ModelCallResult & { plan: TRunPlan }>;
}

export const PLANNER_SYSTEM_PROMPT =
  "You are the coordinator of a team of AI agents: Strategist (plans), Coder (writes code), Designer (writes design and UX specifications) and Critic (reviews and scores drafts). Split the user's request into 1 to 8 steps, each for one role with a concrete task. A step lists in dependsOn the ids of earlier steps whose output it needs; steps without dependencies run in parallel. Use only the roles the request needs; end with a Critic step when there is something to review. Explain the split in one or two sentences in rationale.";

export function createModelGateway(options: GatewayOptions): ModelGateway {
  const resolver = createModelResolver(options);
  const health = createHealthTracker();
  const { call } = createModelCaller({
    config: options.config,
    log: options.log,
    health,
    resolver,
    onCallSettled: options.onCallSettled,
  });

  async function streamModel(input: StreamModelInput): Promise<ModelCallResult> {
    const { object: _object, ...result } = await call(input, undefined);
    return result;
  }

  async function generateStructured<T>(
    input: StructuredCallInput<T>,
  ): Promise<ModelCallResult & { object: T }> {
    const { schema, schemaName, schemaDescription, ...rest } = input;
    // Not awaited when it is there already: the request goes out before the caller goes on.
    const ready = structuredOutput(schema, schemaName, schemaDescription);
    const output = ready instanceof Promise ? await ready : ready;
    const result = await call(rest, output);
    // `output.parse` checked it against `schema` inside the attempt: an attempt whose answer
    // does not match fails (and falls back), so a returned call always has a valid object.
    return { ...result, object: result.object as T };
  }

  async function generatePlan(input: PlanInput): Promise<ModelCallResult & { plan: TRunPlan }> {
    const { request, history = [], allowedRoles, system, ...rest } = input;
    const only =
      allowedRoles && allowedRoles.length > 0
        ? `Use only these roles: ${allowedRoles.map((r) => AGENT_ROLE_NAMES[r]).join(", ")}.`
        : undefined;
    const result = await generateStructured({
      ...rest,
      system: [PLANNER_SYSTEM_PROMPT, only, system].filter(Boolean).join("\n\n"),
      messages: [...history, { role: "user", content: request }],
      schema: ZRunPlan,
      schemaName: "run_plan",
      schemaDescription: "Which agent roles work on which sub-task, in which order.",
    });
    const plan = result.object;
    if (allowedRoles && allowedRoles.length > 0) {
      const stray = plan.steps.find((s) => !allowedRoles.includes(s.role));
      if (stray) {
        throw new AppError(
          MODEL_ERROR_CODES.invalidOutput,
          502,
          `${result.modelName} planned a ${AGENT_ROLE_NAMES[stray.role]} step, but only ${allowedRoles.map((r) => AGENT_ROLE_NAMES[r]).join(", ")} were chosen. Please try again.`,
        );
      }
    }
    const { object: _object, ...callResult } = result;
    return { ...callResult, plan };
  }

  return {
    catalogue: resolver.catalogue,
    providers: resolver.providers,
    health,
    resolve: resolver.resolve,
    estimateCall: resolver.estimateCall,
    streamModel,
    generateStructured,
    generatePlan,
  };
}

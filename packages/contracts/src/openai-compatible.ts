import { z } from "zod";
import { ZDeniedToolCall } from "./approvals";
import { ZAgentRoleId } from "./models";

// ---------------------------------------------------------------------------------------
// The OpenAI-compatible API under /api/v1 (decision 034): the official `openai`
// SDKs talk to Cohort as they would to OpenAI. Field names follow OpenAI's wire format, not
// Cohort's; the one addition is the `cohort` field of a team run's completion.
// ---------------------------------------------------------------------------------------

/** The model id that runs the whole agent team (plan, agents, critic, synthesis). */
export const COHORT_TEAM_MODEL = "cohort-team";
export const OPENAI_API_PREFIX = "/api/v1";

/** GET /api/v1/models: one model. */
export const ZOpenAIModel = z.object({
  id: z.string(),
  object: z.literal("model"),
  /** Unix seconds. */
  created: z.number().int(),
  owned_by: z.string(),
});
export type TOpenAIModel = z.infer<typeof ZOpenAIModel>;

export const ZOpenAIModelList = z.object({
  object: z.literal("list"),
  data: z.array(ZOpenAIModel),
});
export type TOpenAIModelList = z.infer<typeof ZOpenAIModelList>;

/** Content as OpenAI allows it: a string, or parts of which Cohort reads the text ones. */
const ZTextPart = z.object({ type: z.literal("text"), text: z.string() });
const ZMessageContent = z.union([z.string(), z.array(ZTextPart)]);

export const ZOpenAIChatMessage = z.object({
  /** `developer` is OpenAI's newer name for `system`; both become instructions. */
  role: z.enum(["system", "developer", "user", "assistant"]),
  content: ZMessageContent,
  name: z.string().optional(),
});
export type TOpenAIChatMessage = z.infer<typeof ZOpenAIChatMessage>;

export const OPENAI_STOP_MAX = 4;

/**
 * POST /api/v1/chat/completions. Fields Cohort does not know are ignored (SDKs add new ones
 * all the time); the ones it cannot honour are refused by name (`OPENAI_UNSUPPORTED_FIELDS`).
 */
export const ZChatCompletionRequest = z.object({
  model: z.string().trim().min(1),
  messages: z.array(ZOpenAIChatMessage).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(OPENAI_STOP_MAX)]).nullish(),
  /** Only one choice per request. */
  n: z.literal(1).nullish(),
  user: z.string().nullish(),
});
export type TChatCompletionRequest = z.infer<typeof ZChatCompletionRequest>;

/**
 * Request fields whose meaning Cohort cannot give (tool calls, several choices' worth of
 * sampling controls it does not pass on, structured output, audio): a 400 naming the field
 * beats an answer that silently ignores what the caller relies on.
 */
export const OPENAI_UNSUPPORTED_FIELDS = [
  "tools",
  "tool_choice",
  "functions",
  "function_call",
  "parallel_tool_calls",
  "response_format",
  "logprobs",
  "top_logprobs",
  "audio",
  "modalities",
  "prediction",
  "logit_bias",
  "web_search_options",
] as const;

export const ZOpenAIUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type TOpenAIUsage = z.infer<typeof ZOpenAIUsage>;

/** What a team run did, on its completion (the last chunk when streamed). */
export const ZCohortRunSummary = z.object({
  session_id: z.string(),
  /** The session in the web app. */
  session_url: z.string(),
  run_id: z.string(),
  status: z.enum(["completed", "failed", "cancelled"]),
  plan: z.array(
    z.object({ id: z.string(), role: ZAgentRoleId, task: z.string(), model: z.string() }),
  ),
  agents: z.array(
    z.object({
      role: ZAgentRoleId.nullable(),
      kind: z.string(),
      model: z.string(),
      status: z.string(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      /** Credits, decimal (two places). */
      credits: z.number(),
    }),
  ),
  total_credits: z.number(),
  /** The Critic's overall score out of 10; null without a review or a score. */
  critic_score: z.number().nullable(),
  /** Tool calls that needed a person's approval, which nobody can give here: denied. */
  tools_denied: z.array(ZDeniedToolCall).optional(),
});
export type TCohortRunSummary = z.infer<typeof ZCohortRunSummary>;

export const ZFinishReason = z.enum(["stop", "length", "content_filter"]);
export type TFinishReason = z.infer<typeof ZFinishReason>;

export const ZChatCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string(),
        refusal: z.null(),
      }),
      finish_reason: ZFinishReason,
      logprobs: z.null(),
    }),
  ),
  usage: ZOpenAIUsage,
  cohort: ZCohortRunSummary.optional(),
  /** `cohort-simulator` when the built-in simulator answered (decision 053). */
  system_fingerprint: z.string().nullable().optional(),
});
export type TChatCompletion = z.infer<typeof ZChatCompletion>;

export const ZChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
      finish_reason: ZFinishReason.nullable(),
      logprobs: z.null(),
    }),
  ),
  /** Only on the extra last chunk when `stream_options.include_usage` (choices is empty then). */
  usage: ZOpenAIUsage.nullable().optional(),
  cohort: ZCohortRunSummary.optional(),
  /** `cohort-simulator` when the built-in simulator answers (decision 053). */
  system_fingerprint: z.string().nullable().optional(),
});
export type TChatCompletionChunk = z.infer<typeof ZChatCompletionChunk>;

/** OpenAI's error types, by status. */
export const OPENAI_ERROR_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "insufficient_quota",
  403: "permission_error",
  404: "not_found_error",
  409: "conflict_error",
  429: "rate_limit_error",
  500: "server_error",
} as const;

export const ZOpenAIError = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type TOpenAIError = z.infer<typeof ZOpenAIError>;

export const OPENAI_API_MESSAGES = {
  unsupported: (field: string) =>
    `"${field}" is not supported by Cohort's API. Remove it and try again.`,
  unknownModel: (model: string) =>
    `The model "${model}" does not exist. See GET /api/v1/models for the models you can call.`,
  routeNotFound: (method: string, url: string) =>
    `There is no ${method} ${url}. Cohort's API offers GET /api/v1/models and POST /api/v1/chat/completions.`,
  noTask: "The request needs at least one user message with text.",
  taskTooLong: (max: number) =>
    `The task is longer than ${max} characters. Shorten the messages and try again.`,
  runFailed: (message: string) => `The agent team could not finish: ${message}`,
  runCancelled: "The agent team's run was stopped before it finished.",
} as const;

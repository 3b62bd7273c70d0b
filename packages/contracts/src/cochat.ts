import { z } from "zod";
import { COCHAT_DEFAULT_MAX_TOKENS, COCHAT_DEFAULT_TEMPERATURE } from "./constants";
import { ZModelHealth } from "./models";

// ---------------------------------------------------------------------------------------
// CoChat (its request, roles and calls): single-model chat for pro, pro+ and
// enterprise, streamed as Server-Sent Events, its conversations stored.
// ---------------------------------------------------------------------------------------

export const COCHAT_MESSAGE_MAX_CHARS = 32_000;
export const COCHAT_MAX_MESSAGES = 200;
export const COCHAT_MAX_TOKENS_LIMIT = 32_768;
export const COCHAT_TITLE_MAX = 80;

/** The API: session_id defaults to `cochat-{timestamp}`. */
export function defaultCochatSessionId(now: number = Date.now()): string {
  return `cochat-${now}`;
}

export const ZCochatSessionId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, { error: "use letters, digits, '-', '_', '.' or ':'" });

export const ZCochatMessage = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().min(1).max(COCHAT_MESSAGE_MAX_CHARS),
});
export type TCochatMessage = z.infer<typeof ZCochatMessage>;

/** How an answer is sampled: a new message's, a regenerated or edited one's. */
const sampling = {
  temperature: z.number().min(0).max(2).default(COCHAT_DEFAULT_TEMPERATURE),
  max_tokens: z
    .number()
    .int()
    .min(1)
    .max(COCHAT_MAX_TOKENS_LIMIT)
    .default(COCHAT_DEFAULT_MAX_TOKENS),
};

export const ZCochatChatRequest = z.object({
  /** The whole conversation so far, oldest first, ending with the user's new message. */
  messages: z
    .array(ZCochatMessage)
    .min(1)
    .max(COCHAT_MAX_MESSAGES)
    .refine((messages) => messages.at(-1)?.role === "user", {
      error: "the last message must be the user's",
    }),
  /** A CoChat model id (GET /api/cochat/models); defaults to the first of that list. */
  model: z.string().min(1).max(100).optional(),
  session_id: ZCochatSessionId.optional(),
  /**
   * The stored message the new one follows: the last one on screen (decision 068). Absent:
   * the last message of the conversation's branch on screen.
   */
  parent_id: z.uuid().nullable().optional(),
  ...sampling,
});
export type TCochatChatRequest = z.input<typeof ZCochatChatRequest>;

/** The SSE events of POST /api/cochat/chat, in order: start, delta…, then done or error. */
export const COCHAT_EVENTS = {
  start: "start",
  delta: "delta",
  done: "done",
  error: "error",
} as const;

export const ZCochatStartEvent = z.object({
  session_id: z.string(),
  model: z.string(),
  model_name: z.string(),
  /** The provider that serves the model now, or "simulator". */
  provider: z.string(),
  simulated: z.boolean(),
});
export type TCochatStartEvent = z.infer<typeof ZCochatStartEvent>;

export const ZCochatDeltaEvent = z.object({ text: z.string() });
export type TCochatDeltaEvent = z.infer<typeof ZCochatDeltaEvent>;

export const ZCochatDoneEvent = z.object({
  session_id: z.string(),
  message_id: z.string(),
  model: z.string(),
  model_name: z.string(),
  provider: z.string(),
  simulated: z.boolean(),
  /** "user": the call ran on the user's own key. CoChat costs no credits either way. */
  key_source: z.enum(["hosted", "user", "simulator"]),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
  finish_reason: z.string(),
  latency_ms: z.number(),
});
export type TCochatDoneEvent = z.infer<typeof ZCochatDoneEvent>;

export const ZCochatErrorEvent = z.object({ code: z.string(), message: z.string() });
export type TCochatErrorEvent = z.infer<typeof ZCochatErrorEvent>;

export const COCHAT_MESSAGE_STATUSES = ["complete", "stopped", "failed"] as const;

export const ZCochatStoredMessage = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  /** Assistant messages: the model that answered. */
  model: z.string().nullable(),
  model_name: z.string().nullable(),
  provider: z.string().nullable(),
  simulated: z.boolean().nullable(),
  /** stopped: the user pressed Stop; failed: the provider failed (see error). */
  status: z.enum(COCHAT_MESSAGE_STATUSES),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  /** The message it follows (null: the first); decision 068. */
  parent_id: z.string().nullable(),
  /** Its versions (itself among them), oldest first: edits of a question, regenerated answers. */
  version_ids: z.array(z.string()),
});
export type TCochatStoredMessage = z.infer<typeof ZCochatStoredMessage>;

export const ZCochatConversation = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string(),
  message_count: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCochatConversation = z.infer<typeof ZCochatConversation>;

export const ZCochatConversationsResponse = z.object({
  conversations: z.array(ZCochatConversation),
});
export type TCochatConversationsResponse = z.infer<typeof ZCochatConversationsResponse>;

export const ZCochatConversationResponse = z.object({
  conversation: ZCochatConversation,
  messages: z.array(ZCochatStoredMessage),
});
export type TCochatConversationResponse = z.infer<typeof ZCochatConversationResponse>;

// ---------------------------------------------------------------------------------------
// Versions (decision 068): regenerate an answer, edit a question in place, page between
// versions, rename a conversation.
// ---------------------------------------------------------------------------------------

const answerSettings = {
  /** A CoChat model id; defaults to the conversation's model. */
  model: z.string().min(1).max(100).optional(),
  ...sampling,
};

/** POST /api/cochat/conversations/:id/messages/:messageId/regenerate: a new version of an answer. */
export const ZCochatRegenerateRequest = z.object(answerSettings);
export type TCochatRegenerateRequest = z.input<typeof ZCochatRegenerateRequest>;

/** POST /api/cochat/conversations/:id/messages/:messageId/edit: a new version of a question. */
export const ZCochatEditRequest = z.object({
  content: z.string().trim().min(1).max(COCHAT_MESSAGE_MAX_CHARS),
  ...answerSettings,
});
export type TCochatEditRequest = z.input<typeof ZCochatEditRequest>;

/** PUT /api/cochat/conversations/:id/current: show the branch that holds this version. */
export const ZCochatSelectVersionRequest = z.object({ message_id: z.uuid() });
export type TCochatSelectVersionRequest = z.infer<typeof ZCochatSelectVersionRequest>;

/** PATCH /api/cochat/conversations/:id: rename. */
export const ZCochatRenameRequest = z.object({
  title: z.string().trim().min(1).max(COCHAT_TITLE_MAX),
});
export type TCochatRenameRequest = z.infer<typeof ZCochatRenameRequest>;

export const ZCochatRenameResponse = z.object({ conversation: ZCochatConversation });
export type TCochatRenameResponse = z.infer<typeof ZCochatRenameResponse>;

/** GET /api/cochat/health: whether CoChat can answer, and how its models' providers are doing. */
export const ZCochatHealthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  default_model: z.string().nullable(),
  models: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      provider: z.string(),
      simulated: z.boolean(),
    }),
  ),
  providers: z.array(ZModelHealth),
  /** Fair use per user (CoChat Unlimited costs no credits). */
  messages_per_hour: z.number().int().positive(),
});
export type TCochatHealthResponse = z.infer<typeof ZCochatHealthResponse>;

export const COCHAT_ERROR_CODES = {
  /** The model exists but is not one of CoChat's (GET /api/cochat/models). */
  modelNotOffered: "cochat_model_not_offered",
  /** The per-user fair-use limit of CoChat Unlimited. */
  fairUseLimit: "cochat_fair_use_limit",
  /** Regenerate names a question, or edit an answer (decision 068). */
  wrongRole: "cochat_wrong_role",
} as const;

export const COCHAT_MESSAGES = {
  locked:
    "CoChat is included in the Pro, Pro+ and Enterprise plans. Upgrade to unlock CoChat: see /pricing.",
  unlimited: "CoChat Unlimited",
  lockedTitle: "CoChat Locked",
  upgradeLink: "Upgrade to unlock CoChat",
} as const;

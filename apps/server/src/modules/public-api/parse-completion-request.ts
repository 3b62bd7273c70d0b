import {
  OPENAI_API_MESSAGES,
  OPENAI_UNSUPPORTED_FIELDS,
  type TOpenAIChatMessage,
  ZChatCompletionRequest,
} from "@cohort/contracts";
import type { GatewayMessage } from "../models/gateway";
import { invalidParam } from "./openai-error";

/** A chat completion request as Cohort runs it. */
export interface CompletionRequest {
  model: string;
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage: boolean;
  temperature: number | undefined;
  maxTokens: number | undefined;
  stop: string[];
  /** The system (and developer) messages, in order, as one instruction text. */
  system: string | undefined;
  /** The conversation without them, in order. */
  messages: GatewayMessage[];
}

/** `messages[2].content[0]`, as OpenAI names a field in `param`. */
function paramName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) =>
      typeof part === "number" ? `[${part}]` : `${i === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** Non-text parts (images, audio, files) are refused by name before the schema sees them. */
function checkContentParts(messages: unknown): void {
  if (!Array.isArray(messages)) return;
  messages.forEach((message: unknown, i) => {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return;
    content.forEach((part: unknown, j) => {
      const type = (part as { type?: unknown } | null)?.type;
      if (type !== "text") {
        throw invalidParam(
          `messages[${i}].content[${j}]`,
          `Only text content parts are supported; messages[${i}].content[${j}] is of type "${String(type)}".`,
        );
      }
    });
  });
}

const textOf = (content: TOpenAIChatMessage["content"]): string =>
  typeof content === "string" ? content : content.map((part) => part.text).join("");

/**
 * Validates the body of POST /api/v1/chat/completions: unknown fields are ignored, fields
 * Cohort cannot honour are refused by name, and the first problem is reported with its
 * `param`, as OpenAI does.
 */
export function parseCompletionRequest(body: unknown): CompletionRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidParam(null, "The request body must be a JSON object.");
  }
  const fields = body as Record<string, unknown>;
  for (const field of OPENAI_UNSUPPORTED_FIELDS) {
    if (isGiven(fields[field])) throw invalidParam(field, OPENAI_API_MESSAGES.unsupported(field));
  }
  checkContentParts(fields.messages);
  const parsed = ZChatCompletionRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = issue ? paramName(issue.path) : null;
    throw invalidParam(
      param || null,
      `Invalid value for ${param ? `'${param}'` : "the request"}: ${issue?.message ?? "is invalid"}.`,
    );
  }
  const request = parsed.data;
  const instructions = request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => textOf(m.content).trim())
    .filter(Boolean);
  const messages = request.messages.flatMap((m): GatewayMessage[] =>
    m.role === "user" || m.role === "assistant"
      ? [{ role: m.role, content: textOf(m.content) }]
      : [],
  );
  if (!messages.some((m) => m.role === "user" && m.content.trim())) {
    throw invalidParam("messages", OPENAI_API_MESSAGES.noTask);
  }
  const stop = request.stop ?? [];
  return {
    model: request.model,
    stream: request.stream ?? false,
    includeUsage: request.stream_options?.include_usage ?? false,
    temperature: request.temperature ?? undefined,
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    stop: (typeof stop === "string" ? [stop] : stop).filter((s) => s.length > 0),
    system: instructions.length > 0 ? instructions.join("\n\n") : undefined,
    messages,
  };
}

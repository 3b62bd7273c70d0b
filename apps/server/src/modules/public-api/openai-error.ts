import {
  ERROR_CODES,
  errorCodeForStatus,
  OPENAI_ERROR_TYPES,
  type TOpenAIError,
} from "@cohort/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { AppError, INTERNAL_ERROR_MESSAGE } from "../../platform/errors";

/** A refused request naming the field at fault, as OpenAI's `param`. */
export function invalidParam(param: string | null, message: string): AppError {
  return new AppError(ERROR_CODES.validationFailed, 400, message, { param });
}

function typeOf(status: number): string {
  if (status >= 500) return OPENAI_ERROR_TYPES[500];
  return OPENAI_ERROR_TYPES[status as keyof typeof OPENAI_ERROR_TYPES] ?? "invalid_request_error";
}

function paramOf(details: unknown): string | null {
  const param = (details as { param?: unknown } | undefined)?.param;
  return typeof param === "string" ? param : null;
}

export interface OpenAIFailure {
  status: number;
  body: TOpenAIError;
  headers: Record<string, string>;
}

/**
 * Any failure of an /api/v1 call in OpenAI's error shape, so the SDKs raise their own typed
 * errors (AuthenticationError, RateLimitError, …). Cohort's code goes in `code`; 5xx
 * internals are logged by the caller and never shown.
 */
export function toOpenAIFailure(error: unknown): OpenAIFailure {
  const failure = (status: number, code: string, message: string, param: string | null = null) => ({
    status,
    body: { error: { message, type: typeOf(status), param, code } },
    headers: {},
  });
  if (error instanceof AppError) {
    // 499: the call was stopped by the client, who is gone and reads no answer.
    const status = error.statusCode === 499 ? 408 : error.statusCode;
    return {
      ...failure(status, error.code, error.message, paramOf(error.details)),
      headers: error.headers ?? {},
    };
  }
  const fastify = error as FastifyError;
  const status = fastify.statusCode ?? 500;
  if (
    error instanceof SyntaxError ||
    fastify.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
    fastify.code === "FST_ERR_CTP_INVALID_JSON_BODY"
  ) {
    return failure(400, ERROR_CODES.invalidJson, "The request body is not valid JSON.");
  }
  if (fastify.code === "FST_ERR_CTP_BODY_TOO_LARGE" || status === 413) {
    return failure(413, ERROR_CODES.payloadTooLarge, "The request body is larger than 1 MB.");
  }
  if (fastify.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || status === 415) {
    return failure(
      415,
      ERROR_CODES.unsupportedMediaType,
      "Send the request body as application/json.",
    );
  }
  if (status >= 400 && status < 500) {
    return failure(status, errorCodeForStatus(status), fastify.message);
  }
  return failure(500, ERROR_CODES.internal, INTERNAL_ERROR_MESSAGE);
}

/** The /api/v1 error handler: OpenAI's shape instead of Cohort's `{ error: { code, message } }`. */
export function answerOpenAIError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const failure = toOpenAIFailure(error);
  if (failure.status >= 500) request.log.error({ err: error }, "public API request failed");
  return reply.status(failure.status).headers(failure.headers).send(failure.body);
}

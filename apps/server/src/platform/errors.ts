import { ERROR_CODES, errorCodeForStatus, MAX_BODY_BYTES, type TApiError } from "@cohort/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/**
 * The one error type services throw. `message` is shown to the user as is, so it says what
 * happened and what to do, and never carries internals.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again.";

export function errorBody(code: string, message: string, details?: unknown): TApiError {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

interface ValidationIssue {
  path: string;
  message: string;
}

function toIssues(error: FastifyError): ValidationIssue[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((issue) => ({
    path: issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "(root)",
    message: issue.message ?? "is invalid",
  }));
}

export const DATA_EXCEPTION_MESSAGE =
  "The request contains a value that cannot be stored (a NUL character, a malformed id, a number or date out of range). Correct it and try again.";

/**
 * PostgreSQL's class 22 "data exception" (22021 bad character, 22P02 malformed value,
 * 22003 out of range, …): raised by the input, on pg and PGlite alike.
 */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * Fastify's own refusals that happen before routing (a URL that cannot be decoded, e.g.
 * `/%c0%ae`): the same error shape as everything else, not Fastify's default body.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  reply
    .code(status)
    .send(
      errorBody(errorCodeForStatus(status), "The request URL is malformed and cannot be read."),
    );
}

/** A byte limit in MB as people read it: 1, 5, 0.5. */
const megabytes = (bytes: number) => Number((bytes / (1024 * 1024)).toFixed(1));

/** One error handler for the whole API: every failure leaves as `{ error: { code, message } }`. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      if (error.statusCode >= 500) {
        // A refusal that says when to come back (a full queue shedding load) is the server
        // working as designed: a warning without a stack, not an error per refused request.
        if (error.headers?.["retry-after"]) {
          request.log.warn({ code: error.code }, "request refused until the server has room");
        } else {
          request.log.error({ err: error }, "request failed");
        }
      }
      return reply
        .status(error.statusCode)
        .send(errorBody(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? "body";
      const issues = toIssues(error);
      return reply
        .status(400)
        .send(
          errorBody(
            ERROR_CODES.validationFailed,
            `The request ${where} is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`,
            { issues },
          ),
        );
    }
    const status = error.statusCode ?? 500;
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || status === 413) {
      // The route's own limit (an import takes more than the 1 MB of everything else).
      const limit = request.routeOptions.bodyLimit ?? MAX_BODY_BYTES;
      return reply
        .status(413)
        .send(
          errorBody(
            ERROR_CODES.payloadTooLarge,
            `The request body is larger than ${megabytes(limit)} MB.`,
          ),
        );
    }
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" || status === 415) {
      return reply
        .status(415)
        .send(
          errorBody(ERROR_CODES.unsupportedMediaType, "Send the request body as application/json."),
        );
    }
    if (
      error instanceof SyntaxError ||
      error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
      error.code === "FST_ERR_CTP_INVALID_JSON_BODY"
    ) {
      return reply
        .status(400)
        .send(errorBody(ERROR_CODES.invalidJson, "The request body is not valid JSON."));
    }
    if (status === 429) {
      return reply
        .status(429)
        .send(
          errorBody(ERROR_CODES.rateLimited, "Too many requests. Please slow down and try again."),
        );
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(errorCodeForStatus(status), error.message));
    }
    if (isDataException(error)) {
      // The caller's data, not our failure: a value PostgreSQL cannot store or read as its type.
      request.log.warn({ err: error }, "data exception answered as 400");
      return reply
        .status(400)
        .send(errorBody(ERROR_CODES.validationFailed, DATA_EXCEPTION_MESSAGE));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send(errorBody(ERROR_CODES.internal, INTERNAL_ERROR_MESSAGE));
  });
}

import { z } from "zod";

/** Every error the API sends has this shape (docs/conventions.md, "Errors"). */
export const ZApiError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type TApiError = z.infer<typeof ZApiError>;

/** Error codes the server emits; the web client switches on these, never on messages. */
export const ERROR_CODES = {
  badRequest: "bad_request",
  notFound: "not_found",
  validationFailed: "validation_failed",
  invalidJson: "invalid_json",
  payloadTooLarge: "payload_too_large",
  unsupportedMediaType: "unsupported_media_type",
  methodNotAllowed: "method_not_allowed",
  csrfInvalid: "csrf_invalid",
  rateLimited: "rate_limited",
  unauthorized: "unauthorized",
  forbidden: "forbidden",
  agreementRequired: "agreement_required",
  insufficientCredits: "insufficient_credits",
  cochatLocked: "cochat_locked",
  conflict: "conflict",
  internal: "internal_error",
  unavailable: "service_unavailable",
} as const;
export type TErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The code for a failure that carries no more specific one, from its HTTP status alone. */
export function errorCodeForStatus(status: number): string {
  switch (status) {
    case 401:
      return ERROR_CODES.unauthorized;
    case 403:
      return ERROR_CODES.forbidden;
    case 404:
      return ERROR_CODES.notFound;
    case 405:
      return ERROR_CODES.methodNotAllowed;
    case 409:
      return ERROR_CODES.conflict;
    case 413:
      return ERROR_CODES.payloadTooLarge;
    case 415:
      return ERROR_CODES.unsupportedMediaType;
    case 429:
      return ERROR_CODES.rateLimited;
    case 503:
      return ERROR_CODES.unavailable;
    default:
      return status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badRequest;
  }
}

/** Codes for failures that never got an answer from the server. */
export const CLIENT_ERROR_CODES = {
  network: "network_error",
  timeout: "timeout",
  aborted: "request_aborted",
  invalidResponse: "invalid_response",
  http: "http_error",
} as const;

/** Texts shown to people when the server's own message must not or cannot be shown. */
export const FRIENDLY_MESSAGES = {
  network: "We couldn't reach Cohort. Check your connection and try again.",
  timeout: "Cohort took too long to answer. Please try again.",
  server: "Something went wrong on our side. Please try again in a moment.",
  aborted: "The request was cancelled.",
  invalidResponse: "Cohort sent an answer we couldn't read. Please try again.",
  rejected: "That request couldn't be completed.",
  rateLimited: (seconds: number) =>
    `You're sending requests too quickly. Please wait ${seconds} seconds and try again.`,
} as const;

export interface ApiErrorInit {
  /** The HTTP status, or 0 when no response arrived (network, time-out, cancel). */
  status: number;
  code: string;
  /** Safe to show to the user as is. */
  message: string;
  details?: unknown;
  requestId: string;
  retryAfterSeconds?: number;
}

/** Every failed API call rejects with this, whatever went wrong. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly requestId: string;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  get isTimeout(): boolean {
    return this.code === CLIENT_ERROR_CODES.timeout;
  }

  get isAborted(): boolean {
    return this.code === CLIENT_ERROR_CODES.aborted;
  }

  /** A 4xx answer: the request itself was refused, so repeating it unchanged will not help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

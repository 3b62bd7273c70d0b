export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export class ApiError extends Error {
  constructor(status: number, body: string, method: string, path: string);
  readonly status: number;
  /** The answer's body text. */
  readonly body: string;
  readonly method: string;
  readonly path: string;
}

export interface CsrfHeaders {
  cookie: string;
  "x-csrf-token": string;
}

export function csrfHeaders(baseUrl: string, signal?: AbortSignal): Promise<CsrfHeaders>;

export interface ApiCallOptions {
  body?: unknown;
  bearer?: string;
  /** Sign-up, log-in: fetch the CSRF cookie and token first, as a browser would. */
  anonymousMutation?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** 15 s unless given. */
  timeoutMs?: number;
}

export function apiCall<T>(
  baseUrl: string,
  method: HttpMethod,
  path: string,
  options?: ApiCallOptions,
): Promise<T>;

import {
  API_BASE,
  API_TIMEOUT_MS,
  CSRF_HEADER,
  DEFAULT_RETRY_AFTER_SECONDS,
  ERROR_CODES,
  errorCodeForStatus,
  REQUEST_ID_HEADER,
  SLOW_REQUEST_WARNING_MS,
  type TApiError,
  UNAUTHORIZED_REDIRECT_MIN_INTERVAL_MS,
} from "@cohort/contracts";
import { removeStorageIfPresent, STORAGE_KEYS, type StorageLike } from "../storage/browser-storage";
import type { Logger } from "../telemetry/logger";
import { ApiError, CLIENT_ERROR_CODES, FRIENDLY_MESSAGES } from "./api-error";
import { createCsrfToken } from "./csrf-token";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const MUTATING_METHODS: ReadonlySet<HttpMethod> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Pages where a 401 is the expected answer, so it must not bounce the user to /login. */
const AUTH_PAGES: ReadonlySet<string> = new Set([
  "/login",
  "/signup",
  "/forgot-password",
  "/reset-password",
  "/verify-email",
  "/admin/login",
]);

/** Request URLs whose 401 means "wrong credentials", not "session expired". */
const AUTH_URL_MARKERS = ["/user-auth/", "/auth/"] as const;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Time, injectable so tests can drive time-outs and the redirect throttle. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface NavigationAdapter {
  currentPath(): string;
  redirect(path: string): void;
}

export interface ApiClientDeps {
  fetch: FetchLike;
  clock: Clock;
  navigation: NavigationAdapter;
  sessionStorage: StorageLike | null;
  localStorage: StorageLike | null;
  logger: Pick<Logger, "debug" | "info" | "warn" | "error">;
  /** A fresh id for each HTTP request, sent as X-Request-Id. */
  randomId: () => string;
  /** Told about every 401 that counts as a lost session (after the profile is cleared). */
  onUnauthorized?: (error: ApiError) => void;
}

/** Anything with a zod-like `parse`; the client stays free of a schema library. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T = unknown> {
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** Cancels the call (TanStack Query passes one to every query function). */
  signal?: AbortSignal;
  /** Defaults to 30 s; CoChat calls pass 180 s. */
  timeoutMs?: number;
  schema?: ResponseSchema<T>;
  /**
   * false for calls that ask "who is signed in?" (the auth probe, the guards): their 401 is an
   * answer, not a lost session, so the caller decides where to go instead of the 401 policy's
   * full-page redirect. The stored profile is still cleared.
   */
  redirectOnUnauthorized?: boolean;
}

export type BodylessOptions<T> = Omit<RequestOptions<T>, "body">;

export type StreamOptions = Omit<RequestOptions<unknown>, "schema">;

/**
 * A streamed answer (Server-Sent Events): the status line arrived with a 2xx; `chunks()` yields
 * the body's text as it comes. The time-out covers the whole read, like a normal call's, and
 * ending the loop early cancels the request.
 */
export interface ApiStream {
  status: number;
  headers: Headers;
  requestId: string;
  chunks(): AsyncGenerator<string, void, undefined>;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T>(path: string, options?: BodylessOptions<T>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: BodylessOptions<T>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: BodylessOptions<T>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: BodylessOptions<T>): Promise<T>;
  delete<T>(path: string, options?: RequestOptions<T>): Promise<T>;
  /**
   * Opens a streamed call (CoChat's SSE) with the same headers, CSRF handling and error policy
   * as every other call; a non-2xx answer rejects with an ApiError before any chunk.
   */
  stream(method: HttpMethod, path: string, options?: StreamOptions): Promise<ApiStream>;
  /** Forgets the CSRF token, e.g. on sign-out when the session it belongs to ends. */
  clearCsrfToken(): void;
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  requestId: string;
}

/** A fetch that has its response head, from `open`. */
interface OpenCall {
  response: Response;
  /** The server's X-Request-Id, else the one sent. */
  requestId: string;
  controller: AbortController;
  startedAt: number;
  /** Stop the time-out and let go of the caller's signal (once; later calls do nothing). */
  finish(): void;
  /** The transport error for a failure after the head (it finishes the call too). */
  failed(cause: unknown): ApiError;
}

/** One try of a call: its value, or the non-2xx answer for the CSRF-and-retry path. */
type Attempt<T> = { ok: true; value: T } | { ok: false; raw: RawResponse };

/** Resolves a path relative to /api; a path that already starts with /api is kept. */
export function buildApiUrl(path: string, query?: Readonly<Record<string, QueryValue>>): string {
  const withSlash = path.startsWith("/") ? path : `/${path}`;
  const base =
    withSlash === API_BASE ||
    withSlash.startsWith(`${API_BASE}/`) ||
    withSlash.startsWith(`${API_BASE}?`)
      ? withSlash
      : `${API_BASE}${withSlash}`;
  if (!query) return base;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  if (search.length === 0) return base;
  return `${base}${base.includes("?") ? "&" : "?"}${search}`;
}

/** Reads Retry-After as delta-seconds or an HTTP date; falls back to the spec's 60 s. */
export function parseRetryAfter(value: string | null, nowMs: number): number {
  if (value === null || value.trim() === "") return DEFAULT_RETRY_AFTER_SECONDS;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * A hand-written guard rather than ZApiError.parse: this client sits on the path of the first
 * screen, and a schema library there would cost more than the whole client.
 */
function isApiErrorBody(value: unknown): value is TApiError {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === "string" && typeof message === "string";
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isCsrfFailure(status: number, body: TApiError | null): boolean {
  if (status !== 403 || body === null) return false;
  return body.error.code === ERROR_CODES.csrfInvalid || body.error.message.includes("CSRF");
}

/** What a response the client cannot read (not JSON, not its schema) becomes; logged first. */
function invalidResponse(raw: RawResponse): ApiError {
  return new ApiError({
    status: raw.status,
    code: CLIENT_ERROR_CODES.invalidResponse,
    message: FRIENDLY_MESSAGES.invalidResponse,
    requestId: raw.requestId,
  });
}

function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const { clock, logger } = deps;
  const csrf = createCsrfToken(deps.sessionStorage, fetchCsrfToken);
  let lastUnauthorizedRedirectAt = Number.NEGATIVE_INFINITY;

  /**
   * One fetch under the client's rules, for `send` and `stream` alike: a request id, cookies,
   * the JSON body, a time-out, and the caller's signal. The caller reads the body and then
   * calls `finish`; `failed` turns a failure while reading into the transport error.
   */
  async function open(
    method: HttpMethod,
    url: string,
    options: RequestOptions<unknown>,
    accept: string,
    extraHeaders: Record<string, string>,
  ): Promise<OpenCall> {
    const requestId = deps.randomId();
    const headers: Record<string, string> = {
      Accept: accept,
      "Content-Type": "application/json",
      ...options.headers,
      ...extraHeaders,
      [REQUEST_ID_HEADER]: requestId,
    };
    const controller = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs ?? API_TIMEOUT_MS);
    const callerSignal = options.signal;
    const onCallerAbort = () => controller.abort();
    if (callerSignal?.aborted) controller.abort();
    else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    const startedAt = clock.now();
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    };
    const failed = (cause: unknown) => {
      finish();
      return transportError({
        method,
        url,
        requestId,
        durationMs: clock.now() - startedAt,
        timedOut,
        cancelled: callerSignal?.aborted === true,
        cause,
      });
    };
    try {
      const response = await deps.fetch(url, {
        method,
        headers,
        credentials: "include",
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
      const answeredId = response.headers.get(REQUEST_ID_HEADER) ?? requestId;
      return { response, requestId: answeredId, controller, startedAt, finish, failed };
    } catch (cause) {
      throw failed(cause);
    }
  }

  /** A whole answer. The body is read inside the time-out too: a stalled body is no answer. */
  async function send(
    method: HttpMethod,
    url: string,
    options: RequestOptions<unknown>,
    extraHeaders: Record<string, string>,
  ): Promise<RawResponse> {
    const call = await open(method, url, options, "application/json", extraHeaders);
    try {
      const text = await call.response.text();
      const durationMs = clock.now() - call.startedAt;
      if (durationMs > SLOW_REQUEST_WARNING_MS) {
        logger.warn("Slow API request", {
          method,
          url,
          status: call.response.status,
          durationMs,
          requestId: call.requestId,
        });
      }
      return {
        status: call.response.status,
        headers: call.response.headers,
        text,
        requestId: call.requestId,
      };
    } catch (cause) {
      throw call.failed(cause);
    } finally {
      call.finish();
    }
  }

  /** A call that got no (complete) answer: timed out, cancelled by the caller, or no network. */
  function transportError(failed: {
    method: HttpMethod;
    url: string;
    requestId: string;
    durationMs: number;
    timedOut: boolean;
    cancelled: boolean;
    cause: unknown;
  }): ApiError {
    const { method, url, requestId, durationMs } = failed;
    if (failed.timedOut) {
      logger.error("API request timed out", { method, url, durationMs, requestId });
      return new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.timeout,
        message: FRIENDLY_MESSAGES.timeout,
        requestId,
      });
    }
    if (failed.cancelled) {
      logger.debug("API request cancelled", { method, url, requestId });
      return new ApiError({
        status: 0,
        code: CLIENT_ERROR_CODES.aborted,
        message: FRIENDLY_MESSAGES.aborted,
        requestId,
      });
    }
    logger.error("API request failed before a response", {
      method,
      url,
      durationMs,
      requestId,
      cause: failed.cause instanceof Error ? failed.cause.message : String(failed.cause),
    });
    return new ApiError({
      status: 0,
      code: CLIENT_ERROR_CODES.network,
      message: FRIENDLY_MESSAGES.network,
      requestId,
    });
  }

  function errorBodyOf(raw: RawResponse): TApiError | null {
    if (raw.text.length === 0) return null;
    const parsed = parseJson(raw.text);
    return parsed.ok && isApiErrorBody(parsed.value) ? parsed.value : null;
  }

  function handleUnauthorized(url: string, error: ApiError, redirect: boolean): void {
    const currentPath = normalizePath(deps.navigation.currentPath());
    if (AUTH_PAGES.has(currentPath)) return;
    if (AUTH_URL_MARKERS.some((marker) => url.includes(marker))) return;
    removeStorageIfPresent(deps.localStorage, STORAGE_KEYS.userProfile);
    removeStorageIfPresent(deps.sessionStorage, STORAGE_KEYS.sessionProfile);
    deps.onUnauthorized?.(error);
    if (!redirect) return;
    const now = clock.now();
    if (now - lastUnauthorizedRedirectAt < UNAUTHORIZED_REDIRECT_MIN_INTERVAL_MS) return;
    lastUnauthorizedRedirectAt = now;
    logger.warn("Session is not signed in; sending the user to /login", {
      url,
      from: currentPath,
      requestId: error.requestId,
    });
    deps.navigation.redirect("/login");
  }

  /** Turns a non-2xx answer into an ApiError and applies the spec's per-status policy. */
  function failure(
    method: HttpMethod,
    url: string,
    raw: RawResponse,
    redirectOnUnauthorized = true,
  ): ApiError {
    const body = errorBodyOf(raw);
    const status = raw.status;
    const code = body?.error.code ?? errorCodeForStatus(status);
    const details = body?.error.details;
    const requestId = raw.requestId;

    if (status >= 500) {
      logger.error("Server error", { method, url, status, code, requestId });
      return new ApiError({ status, code, message: FRIENDLY_MESSAGES.server, details, requestId });
    }

    if (status === 429) {
      const retryAfterSeconds = parseRetryAfter(raw.headers.get("retry-after"), clock.now());
      logger.warn("Rate limited", { method, url, retryAfterSeconds, requestId });
      return new ApiError({
        status,
        code,
        message: body?.error.message ?? FRIENDLY_MESSAGES.rateLimited(retryAfterSeconds),
        details,
        requestId,
        retryAfterSeconds,
      });
    }

    const error = new ApiError({
      status,
      code,
      message: body?.error.message ?? FRIENDLY_MESSAGES.rejected,
      details,
      requestId,
    });
    if (status === 401) handleUnauthorized(url, error, redirectOnUnauthorized);
    else logger.info("API request refused", { method, url, status, code, requestId });
    return error;
  }

  async function fetchCsrfToken(): Promise<string> {
    const url = buildApiUrl("/csrf-token");
    const raw = await send("GET", url, {}, {});
    if (raw.status < 200 || raw.status >= 300) throw failure("GET", url, raw);
    const parsed = parseJson(raw.text);
    const token =
      parsed.ok && typeof parsed.value === "object" && parsed.value !== null
        ? (parsed.value as { csrfToken?: unknown }).csrfToken
        : undefined;
    if (typeof token !== "string" || token.length === 0) {
      logger.error("CSRF token response had no token", { url, requestId: raw.requestId });
      throw invalidResponse(raw);
    }
    return token;
  }

  function parseSuccess<T>(raw: RawResponse, url: string, schema?: ResponseSchema<T>): T {
    let data: unknown;
    if (raw.status === 204 || raw.text.length === 0) {
      data = undefined;
    } else {
      const parsed = parseJson(raw.text);
      if (!parsed.ok) {
        logger.error("API response was not valid JSON", { url, requestId: raw.requestId });
        throw invalidResponse(raw);
      }
      data = parsed.value;
    }
    if (!schema) return data as T;
    try {
      return schema.parse(data);
    } catch (cause) {
      logger.error("API response did not match its schema", {
        url,
        requestId: raw.requestId,
        cause: cause instanceof Error ? cause.message : String(cause),
      });
      throw invalidResponse(raw);
    }
  }

  /**
   * The one CSRF-and-retry path of `request` and `stream`: a mutation carries the token, and
   * when the server rejects it the client fetches a fresh one and tries once more. Any other
   * non-2xx answer becomes the ApiError of `failure`.
   */
  async function withCsrf<T>(
    method: HttpMethod,
    url: string,
    redirectOnUnauthorized: boolean | undefined,
    attempt: (headers: Record<string, string>) => Promise<Attempt<T>>,
  ): Promise<T> {
    const mutating = MUTATING_METHODS.has(method);
    let retried = false;
    for (;;) {
      const headers: Record<string, string> = mutating
        ? { [CSRF_HEADER]: await csrf.ensure() }
        : {};
      const outcome = await attempt(headers);
      if (outcome.ok) return outcome.value;
      const { raw } = outcome;
      if (mutating && !retried && isCsrfFailure(raw.status, errorBodyOf(raw))) {
        retried = true;
        logger.warn("CSRF token rejected; fetching a fresh one and retrying once", {
          method,
          url,
          requestId: raw.requestId,
        });
        csrf.drop();
        continue;
      }
      throw failure(method, url, raw, redirectOnUnauthorized);
    }
  }

  function request<T>(
    method: HttpMethod,
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    const url = buildApiUrl(path, options.query);
    return withCsrf(method, url, options.redirectOnUnauthorized, async (headers) => {
      const raw = await send(method, url, options, headers);
      return raw.status >= 200 && raw.status < 300
        ? { ok: true, value: parseSuccess(raw, url, options.schema) }
        : { ok: false, raw };
    });
  }

  function stream(
    method: HttpMethod,
    path: string,
    options: StreamOptions = {},
  ): Promise<ApiStream> {
    const url = buildApiUrl(path, options.query);
    return withCsrf(method, url, options.redirectOnUnauthorized, async (headers) => {
      const call = await open(method, url, options, "text/event-stream", headers);
      const { response } = call;
      if (response.ok) return { ok: true, value: streamOf(call) };
      let text: string;
      try {
        text = await response.text();
      } catch (cause) {
        throw call.failed(cause);
      }
      call.finish();
      const raw = {
        status: response.status,
        headers: response.headers,
        text,
        requestId: call.requestId,
      };
      return { ok: false, raw };
    });
  }

  /** A 2xx streamed answer, read chunk by chunk; stopping early cancels the request itself. */
  function streamOf(call: OpenCall): ApiStream {
    const { response } = call;
    const body = response.body;
    return {
      status: response.status,
      headers: response.headers,
      requestId: call.requestId,
      async *chunks() {
        if (!body) {
          call.finish();
          return;
        }
        const reader = body.getReader();
        const decoder = new TextDecoder();
        let complete = false;
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const text = decoder.decode(value, { stream: true });
            if (text) yield text;
          }
          const rest = decoder.decode();
          if (rest) yield rest;
          complete = true;
        } catch (cause) {
          throw call.failed(cause);
        } finally {
          call.finish();
          if (!complete) call.controller.abort();
        }
      },
    };
  }

  return {
    request,
    stream,
    get: (path, options) => request("GET", path, options),
    post: (path, body, options) => request("POST", path, { ...options, body }),
    put: (path, body, options) => request("PUT", path, { ...options, body }),
    patch: (path, body, options) => request("PATCH", path, { ...options, body }),
    delete: (path, options) => request("DELETE", path, options),
    clearCsrfToken: () => csrf.drop(),
  };
}

/** crypto.randomUUID exists only in secure contexts; a plain-http LAN address still needs ids. */
export function randomRequestId(): string {
  const cryptoApi = globalThis.crypto;
  if (typeof cryptoApi?.randomUUID === "function") return cryptoApi.randomUUID();
  const bytes = new Uint8Array(16);
  cryptoApi.getRandomValues(bytes);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

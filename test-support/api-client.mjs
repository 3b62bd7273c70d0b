// The one CSRF + JSON client of the HTTP API for everything that calls a running server from
// outside (browser tests, fault tests, benchmarks). Plain JavaScript with its types beside it
// (api-client.d.mts), so the benchmarks can load it without a TypeScript loader.

/** A non-2xx answer: its status and body text, and which call it was. */
export class ApiError extends Error {
  constructor(status, body, method, path) {
    super(`${method} ${path} answered ${status}: ${body}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.method = method;
    this.path = path;
  }
}

/**
 * What an anonymous mutation needs, as a browser has it: the CSRF cookie and its token, as
 * headers. Calls with a Bearer token are exempt from CSRF and need neither.
 */
export async function csrfHeaders(baseUrl, signal) {
  const response = await fetch(`${baseUrl}/api/csrf-token`, {
    signal: signal ?? AbortSignal.timeout(10_000),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { csrfToken } = await response.json();
  return { cookie, "x-csrf-token": csrfToken };
}

/**
 * One JSON call: the body as JSON, the Bearer token when given, the CSRF pair first for an
 * anonymous mutation (sign-up, log-in). A non-2xx answer throws ApiError; an empty 2xx body
 * is undefined.
 */
export async function apiCall(baseUrl, method, path, options = {}) {
  const headers = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  if (options.anonymousMutation) Object.assign(headers, await csrfHeaders(baseUrl));
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
  });
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, text, method, path);
  return text ? JSON.parse(text) : undefined;
}

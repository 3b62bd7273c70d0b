import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { CSRF_COOKIE } from "../../src/platform/csrf";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A browser-like client for `app.inject`: keeps cookies between calls and sends the CSRF
 * token on mutating calls, as the web app does.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;
  bearer: string | null = null;

  /** The client's IP address as the server sees it (throttling counts per address). */
  constructor(
    readonly app: FastifyInstance,
    readonly remoteAddress = "127.0.0.1",
  ) {}

  private cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      // A new CSRF secret (sign-in, sign-out) voids the token made for the old one, and
      // the web app forgets its token then too.
      if (cookie.name === CSRF_COOKIE && cookie.value !== this.cookies.get(CSRF_COOKIE)) {
        this.csrfToken = null;
      }
      if (cookie.value === "" || (cookie.expires && cookie.expires.getTime() < Date.now())) {
        this.cookies.delete(cookie.name);
      } else {
        this.cookies.set(cookie.name, cookie.value);
      }
    }
  }

  /** The same browser (its cookies and CSRF token) talking to another app instance. */
  on(app: FastifyInstance): TestClient {
    const other = new TestClient(app, this.remoteAddress);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    other.csrfToken = this.csrfToken;
    return other;
  }

  async fetchCsrf(): Promise<string> {
    const response = await this.request("GET", "/api/csrf-token");
    this.csrfToken = (response.json() as { csrfToken: string }).csrfToken;
    return this.csrfToken;
  }

  async request(
    method: Method,
    url: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const mutating = method !== "GET";
    if (mutating && extra.csrf !== false && !this.bearer && !this.csrfToken) await this.fetchCsrf();
    const headers: Record<string, string> = { ...extra.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    if (mutating && extra.csrf !== false && this.csrfToken)
      headers["x-csrf-token"] = this.csrfToken;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const options: InjectOptions = { method, url, headers, remoteAddress: this.remoteAddress };
    if (body !== undefined) options.payload = body as InjectOptions["payload"];
    const response = await this.app.inject(options);
    this.remember(response);
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request("GET", url, undefined, headers ? { headers } : {});
  }
  post(url: string, body?: unknown, extra?: { headers?: Record<string, string>; csrf?: boolean }) {
    return this.request("POST", url, body ?? {}, extra);
  }
  put(url: string, body?: unknown) {
    return this.request("PUT", url, body ?? {});
  }
  patch(url: string, body?: unknown) {
    return this.request("PATCH", url, body ?? {});
  }
  delete(url: string) {
    return this.request("DELETE", url);
  }
}

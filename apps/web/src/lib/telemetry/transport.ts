import { API_BASE, CSRF_HEADER, ERROR_CODES, REQUEST_ID_HEADER } from "@cohort/contracts";
import {
  readStorage,
  STORAGE_KEYS,
  type StorageLike,
  writeStorage,
} from "../storage/browser-storage";

/**
 * How telemetry leaves the page. Not the app's API client on purpose: a failed send must not
 * write a log entry (which would be sent, fail, and log again), and the last send of a page
 * must survive the page (fetch `keepalive`). Authentication is the session cookie, exactly as
 * for every other call; the CSRF token travels in its header, which `keepalive` fetches can
 * carry and `sendBeacon` cannot (docs/decisions/021-telemetry.md).
 */
export type TelemetryFetch = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportDeps {
  fetch: TelemetryFetch;
  sessionStorage: StorageLike | null;
  randomId: () => string;
}

export interface SendOptions {
  /** The page is going away: the browser finishes the request after it unloads. */
  keepalive?: boolean;
}

export interface SendResult {
  /** 0 when the request never got an answer. */
  status: number;
  /** Seconds, from Retry-After; only on 429. */
  retryAfterSeconds?: number;
}

export interface TelemetryTransport {
  send(path: string, body: unknown, options?: SendOptions): Promise<SendResult>;
}

/** What a browser lets all pending keepalive requests of a page carry together. */
export const KEEPALIVE_BODY_LIMIT_BYTES = 60_000;

export function createTelemetryTransport(deps: TransportDeps): TelemetryTransport {
  let tokenRequest: Promise<string | null> | null = null;

  async function fetchToken(): Promise<string | null> {
    try {
      const response = await deps.fetch(`${API_BASE}/csrf-token`, {
        method: "GET",
        credentials: "include",
        headers: { Accept: "application/json" },
      });
      if (!response.ok) return null;
      const body = (await response.json()) as { csrfToken?: unknown };
      if (typeof body.csrfToken !== "string") return null;
      // Shared with the API client, which reads the same key: one token per tab.
      writeStorage(deps.sessionStorage, STORAGE_KEYS.csrfToken, body.csrfToken);
      return body.csrfToken;
    } catch {
      return null;
    }
  }

  function csrfToken(fresh: boolean): Promise<string | null> {
    const stored = fresh ? null : readStorage(deps.sessionStorage, STORAGE_KEYS.csrfToken);
    if (stored) return Promise.resolve(stored);
    tokenRequest ??= fetchToken().finally(() => {
      tokenRequest = null;
    });
    return tokenRequest;
  }

  async function post(
    path: string,
    body: string,
    token: string | null,
    keepalive: boolean,
  ): Promise<Response | null> {
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json",
      [REQUEST_ID_HEADER]: deps.randomId(),
    };
    if (token) headers[CSRF_HEADER] = token;
    try {
      return await deps.fetch(`${API_BASE}${path}`, {
        method: "POST",
        credentials: "include",
        headers,
        body,
        keepalive,
      });
    } catch {
      return null;
    }
  }

  async function isCsrfRefusal(response: Response): Promise<boolean> {
    if (response.status !== 403) return false;
    try {
      const body = (await response.clone().json()) as { error?: { code?: unknown } };
      return body.error?.code === ERROR_CODES.csrfInvalid;
    } catch {
      return false;
    }
  }

  return {
    async send(path, body, options = {}) {
      const text = JSON.stringify(body);
      const keepalive = options.keepalive === true;
      let response = await post(path, text, await csrfToken(false), keepalive);
      // The error texts: a CSRF refusal drops the cached token and retries once.
      if (response && (await isCsrfRefusal(response))) {
        response = await post(path, text, await csrfToken(true), keepalive);
      }
      if (!response) return { status: 0 };
      if (response.status === 429) {
        const header = response.headers.get("retry-after");
        const seconds = header && /^\d+$/.test(header) ? Number(header) : undefined;
        return seconds === undefined
          ? { status: 429 }
          : { status: 429, retryAfterSeconds: seconds };
      }
      return { status: response.status };
    },
  };
}

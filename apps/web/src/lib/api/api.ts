import { getBrowserStorage } from "../storage/browser-storage";
import { logger } from "../telemetry/logger";
import type { ApiError } from "./api-error";
import { type ApiClient, type ApiClientDeps, createApiClient, randomRequestId } from "./client";

const unauthorizedListeners = new Set<(error: ApiError) => void>();

/** Tells `listener` about every 401 that means the sign-in is gone; returns an unsubscribe. */
export function onSignInLost(listener: (error: ApiError) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

/** The browser's adapters for the API client; tests build their own instead. */
export function browserApiDeps(overrides: Partial<ApiClientDeps> = {}): ApiClientDeps {
  return {
    fetch: (input, init) => globalThis.fetch(input, init),
    clock: {
      now: () => Date.now(),
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    navigation: {
      currentPath: () => window.location.pathname,
      // A full load on purpose: it also drops every piece of state the lost session left behind.
      redirect: (path) => window.location.assign(path),
    },
    sessionStorage: getBrowserStorage("sessionStorage"),
    localStorage: getBrowserStorage("localStorage"),
    logger,
    randomId: randomRequestId,
    onUnauthorized: (error) => {
      for (const listener of unauthorizedListeners) listener(error);
    },
    ...overrides,
  };
}

/** The app's one API client. */
export const api: ApiClient = createApiClient(browserApiDeps());

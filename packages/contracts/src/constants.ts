/** Business constants and limits of the product limits, shared by server and web. */
export const API_BASE = "/api";
export const API_TIMEOUT_MS = 30_000;
export const COCHAT_TIMEOUT_MS = 180_000;
export const AUTH_INIT_TIMEOUT_MS = 2_000;
export const PROTECTED_ROUTE_CHECK_DELAY_MS = 100;

export const LOG_BUFFER_FLUSH_SIZE = 50;
export const LOG_FLUSH_INTERVAL_MS = 30_000;
export const SLOW_REQUEST_WARNING_MS = 1_000;

export const ANALYTICS_MIN_SEND_INTERVAL_MS = 2_000;
export const ANALYTICS_RATE_LIMIT_BACKOFF_MS = 60_000;
export const ANALYTICS_SESSION_TIMEOUT_MS = 30 * 60_000;

export const REDIRECT_LOOP_MAX = 3;
export const REDIRECT_LOOP_WINDOW_MS = 2_000;
export const ROUTE_LOOP_ENTRIES = 10;
export const ROUTE_LOOP_MAX_VISITS = 3;
export const ROUTE_LOOP_WINDOW_MS = 5_000;
export const ROUTE_LOOP_RESET_MS = 10_000;
export const NAVIGATION_HISTORY_ENTRIES = 20;
export const UNAUTHORIZED_REDIRECT_MIN_INTERVAL_MS = 3_000;

export const SCROLL_TO_BOTTOM_THRESHOLD_PX = 50;

export const SOCKET_RECONNECTION_ATTEMPTS = 10;
export const SOCKET_RECONNECTION_DELAY_MS = 1_000;
export const SOCKET_RECONNECTION_DELAY_MAX_MS = 5_000;
export const UI_RECONNECT_DELAY_MS = 2_000;
export const UI_RECONNECTED_DISPLAY_MS = 3_000;

export const CREDITS_LOW_THRESHOLD = 20;
export const CREDITS_CRITICAL_THRESHOLD = 5;

export const COCHAT_DEFAULT_TEMPERATURE = 0.7;
export const COCHAT_DEFAULT_MAX_TOKENS = 2048;
export const DEFAULT_BILLING_PERIOD = "monthly";
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** The validation rules: keys whose values never reach a log, at any depth. */
export const REDACTED_LOG_KEYS = [
  "password",
  "token",
  "secret",
  "api_key",
  "apiKey",
  "authorization",
  // Beyond the validation rules (decision 051): cookies and the OAuth/sign-in token names clients use.
  "cookie",
  "set-cookie",
  "access_token",
  "refresh_token",
  "sessionToken",
] as const;
export const REDACTED = "[REDACTED]";

export const REQUEST_ID_HEADER = "x-request-id";
export const CSRF_HEADER = "x-csrf-token";
export const MAX_BODY_BYTES = 1_048_576;

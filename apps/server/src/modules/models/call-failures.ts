import { APICallError } from "@ai-sdk/provider";
import {
  MODEL_ERROR_CODES,
  PROVIDER_KEYS_SETTINGS_PATH,
  PROVIDER_NAMES,
  type TProviderId,
  userKeyRefusedMessage,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { KeySource } from "./providers";

/**
 * What went wrong in one attempt against one provider, and what the gateway may do next:
 * retry the same provider (after a delay), fall back to the next one, or stop.
 */
export type FailureKind =
  | "rate_limited"
  | "server_error"
  | "network"
  | "timeout"
  | "auth"
  | "rejected"
  | "interrupted"
  | "invalid_output";

/** A structured answer that is not JSON, or not the JSON its schema asks for. */
export class InvalidOutputError extends Error {
  override name = "InvalidOutputError";
}

export interface CallFailure {
  kind: FailureKind;
  provider: TProviderId | "simulator";
  providerModel: string;
  keySource: KeySource;
  status: number | undefined;
  /** From Retry-After / retry-after-ms, when the provider sent one. */
  retryAfterMs: number | undefined;
  /** Worth trying the same provider again. */
  retryable: boolean;
  /**
   * Ends the whole call, with no retry and no other provider: the user's own key was refused
   * (401/403). That is their key, not an outage, and a hosted key is never used in its place
   * (decision 029).
   */
  endsCall: boolean;
  /** For the server log only: may quote the provider's own message. */
  detail: string;
}

const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(
  headers: Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number.parseFloat(lower["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = lower["retry-after"]?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function classifyFailure(
  error: unknown,
  target: { provider: TProviderId | "simulator"; providerModel: string; keySource: KeySource },
  state: { timedOut: boolean; deltasSeen: boolean; timeoutMs: number },
): CallFailure {
  const base = {
    ...target,
    status: undefined,
    retryAfterMs: undefined,
    retryable: false,
    endsCall: false,
  };
  const message = error instanceof Error ? error.message : String(error);
  if (state.timedOut) {
    return { ...base, kind: "timeout", detail: `no complete answer within ${state.timeoutMs} ms` };
  }
  if (error instanceof InvalidOutputError) {
    return { ...base, kind: "invalid_output", detail: message };
  }
  if (state.deltasSeen) return { ...base, kind: "interrupted", detail: message };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = `${status ?? "no status"}: ${message}`;
    if (status === 401 || status === 403) {
      return { ...base, kind: "auth", status, detail, endsCall: target.keySource === "user" };
    }
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(error.responseHeaders);
      return { ...base, kind: "rate_limited", status, retryAfterMs, retryable: true, detail };
    }
    // No status: no connection. A 2xx: the response broke while being read. Both transient.
    if (status === undefined || status < 400) {
      return { ...base, kind: "network", status, retryable: true, detail };
    }
    if (RETRYABLE_STATUSES.has(status) || status >= 500) {
      const retryAfterMs = parseRetryAfter(error.responseHeaders);
      return { ...base, kind: "server_error", status, retryAfterMs, retryable: true, detail };
    }
    return { ...base, kind: "rejected", status, detail };
  }
  // A connection that failed or closed before any text arrived is worth another try.
  return { ...base, kind: "network", retryable: true, detail: message };
}

function providerName(provider: TProviderId | "simulator"): string {
  return PROVIDER_NAMES[provider];
}

/** A fragment for the user's message; never quotes the provider (it may echo key parts). */
export function describeFailure(failure: CallFailure, timeoutMs: number): string {
  const name = providerName(failure.provider);
  switch (failure.kind) {
    case "rate_limited":
      return `${name} is rate limiting requests`;
    case "server_error":
      return `${name} had a server error (${failure.status})`;
    case "network":
      return `the connection to ${name} failed`;
    case "timeout":
      return `${name} did not answer within ${Math.round(timeoutMs / 1000)} s`;
    case "auth":
      return `${name} rejected the API key`;
    case "rejected":
      return `${name} refused the request (${failure.status})`;
    case "interrupted":
      return `${name} closed the connection mid-answer`;
    case "invalid_output":
      return `${name}'s answer did not match the expected format`;
  }
}

/** The error the caller sees once every provider of the model has failed. */
export function exhaustedError(
  modelName: string,
  failures: readonly CallFailure[],
  timeoutMs: number,
): AppError {
  const details = {
    model: modelName,
    attempts: failures.map((f) => ({
      provider: f.provider,
      model: f.providerModel,
      reason: f.kind,
      ...(f.status ? { status: f.status } : {}),
    })),
  };
  const refused = failures.find((f) => f.kind === "auth" && f.keySource === "user");
  if (refused && refused.provider !== "simulator") {
    return new AppError(
      MODEL_ERROR_CODES.providerKeyRejected,
      400,
      `${userKeyRefusedMessage(refused.provider)} (${providerName(refused.provider)} answered ${refused.status}), so ${modelName} could not answer. Replace or remove the key in Settings.`,
      { ...details, provider: refused.provider, settings_url: PROVIDER_KEYS_SETTINGS_PATH },
    );
  }
  if (failures.length > 0 && failures.every((f) => f.kind === "timeout")) {
    return new AppError(
      MODEL_ERROR_CODES.providerTimeout,
      504,
      `${modelName} did not answer within ${Math.round(timeoutMs / 1000)} seconds. Please try again.`,
      details,
    );
  }
  if (failures.length > 0 && failures.every((f) => f.kind === "invalid_output")) {
    return new AppError(
      MODEL_ERROR_CODES.invalidOutput,
      502,
      `${modelName} returned an answer in the wrong format. Please try again.`,
      details,
    );
  }
  const reasons = [...new Set(failures.map((f) => describeFailure(f, timeoutMs)))].join("; ");
  const last = failures.at(-1);
  const retryAfter =
    last?.retryAfterMs !== undefined
      ? { "retry-after": String(Math.max(1, Math.ceil(last.retryAfterMs / 1000))) }
      : undefined;
  return new AppError(
    MODEL_ERROR_CODES.providerUnavailable,
    502,
    `${modelName} is unavailable right now${reasons ? ` (${reasons})` : ""}. Please try again in a moment.`,
    details,
    retryAfter,
  );
}

export function interruptedError(modelName: string, failure: CallFailure, timeoutMs: number) {
  if (failure.kind === "timeout") {
    return new AppError(
      MODEL_ERROR_CODES.providerTimeout,
      504,
      `${modelName} stopped answering before it finished (no complete answer within ${Math.round(timeoutMs / 1000)} seconds). Please try again.`,
      { model: modelName, provider: failure.provider },
    );
  }
  return new AppError(
    MODEL_ERROR_CODES.streamInterrupted,
    502,
    `The answer from ${modelName} was cut off (${describeFailure(failure, timeoutMs)}). Please try again.`,
    { model: modelName, provider: failure.provider },
  );
}

export function abortedError(modelName: string): AppError {
  // 499 (client closed request): the caller stopped the call; nothing failed on our side.
  return new AppError(MODEL_ERROR_CODES.callAborted, 499, `The call to ${modelName} was stopped.`);
}

/** The error of a model call that the user's own key could not make (decision 029). */
export function isUserKeyRefusal(code: string): boolean {
  return code === MODEL_ERROR_CODES.providerKeyRejected;
}

const TRY_AGAIN = /please try again[^.]*\.$/i;

/**
 * `message` ending in "Please try again." once: messages are nested (a call's inside a run's),
 * and each layer adding its own advice made "…in a moment. Please try again." .
 * A refused user key gets none: trying again with the same key cannot help.
 */
export function withTryAgain(message: string, code?: string): string {
  const text = message.trim();
  if ((code && isUserKeyRefusal(code)) || TRY_AGAIN.test(text)) return text;
  return `${text} Please try again.`;
}

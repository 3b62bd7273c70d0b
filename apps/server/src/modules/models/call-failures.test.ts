import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { classifyFailure, exhaustedError, parseRetryAfter, withTryAgain } from "./call-failures";

const target = {
  provider: "openai" as const,
  providerModel: "gpt-4.1",
  keySource: "hosted" as const,
};
const state = { timedOut: false, deltasSeen: false, timeoutMs: 120_000 };

function apiError(statusCode: number | undefined, headers?: Record<string, string>) {
  return new APICallError({
    message: "provider said no: sk-secret-123",
    url: "https://api.example/v1",
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(headers ? { responseHeaders: headers } : {}),
  });
}

describe("parseRetryAfter", () => {
  it("reads milliseconds, seconds and HTTP dates", () => {
    expect(parseRetryAfter({ "retry-after-ms": "250" })).toBe(250);
    expect(parseRetryAfter({ "Retry-After": "2" })).toBe(2000);
    expect(parseRetryAfter({ "retry-after": "1.5" })).toBe(1500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }, now)).toBe(3000);
    expect(parseRetryAfter({ "retry-after": "soon" })).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("classifyFailure", () => {
  it("retries rate limits and server errors, with the provider's Retry-After", () => {
    expect(classifyFailure(apiError(429, { "retry-after": "3" }), target, state)).toMatchObject({
      kind: "rate_limited",
      retryable: true,
      retryAfterMs: 3000,
    });
    expect(classifyFailure(apiError(503), target, state)).toMatchObject({
      kind: "server_error",
      retryable: true,
      status: 503,
    });
    expect(classifyFailure(apiError(undefined), target, state)).toMatchObject({
      kind: "network",
      retryable: true,
    });
    expect(classifyFailure(new TypeError("terminated"), target, state).retryable).toBe(true);
  });

  it("does not retry auth failures, bad requests, time-outs or half-sent answers", () => {
    expect(classifyFailure(apiError(401), target, state)).toMatchObject({
      kind: "auth",
      retryable: false,
      endsCall: false,
    });
    // The user's own key refused: the whole call stops (no other provider, no hosted key).
    for (const status of [401, 403]) {
      expect(
        classifyFailure(apiError(status), { ...target, keySource: "user" }, state),
      ).toMatchObject({ kind: "auth", status, retryable: false, endsCall: true });
    }
    expect(classifyFailure(apiError(400), target, state)).toMatchObject({
      kind: "rejected",
      retryable: false,
    });
    expect(classifyFailure(new Error("x"), target, { ...state, timedOut: true }).kind).toBe(
      "timeout",
    );
    expect(classifyFailure(apiError(500), target, { ...state, deltasSeen: true }).kind).toBe(
      "interrupted",
    );
  });
});

describe("exhaustedError", () => {
  const failure = (over: object) => ({ ...classifyFailure(apiError(500), target, state), ...over });

  it("names the model and never quotes the provider's message", () => {
    const error = exhaustedError(
      "CoReason",
      [failure({}), failure({ provider: "anthropic" })],
      120_000,
    );
    expect(error).toMatchObject({ code: "provider_unavailable", statusCode: 502 });
    expect(error.message).toMatch(
      /^CoReason is unavailable right now \(OpenAI had a server error \(500\); Anthropic had a server error \(500\)\)/,
    );
    expect(JSON.stringify(error)).not.toContain("sk-secret");
  });

  it("tells the user when their own key was rejected", () => {
    const error = exhaustedError(
      "GPT-4.1",
      [failure({ kind: "auth", status: 401, keySource: "user" })],
      1000,
    );
    expect(error).toMatchObject({ code: "provider_key_rejected", statusCode: 400 });
    expect(error.message).toBe(
      "Your OpenAI key in Settings was refused (OpenAI answered 401), so GPT-4.1 could not answer. Replace or remove the key in Settings.",
    );
    expect(error.details).toMatchObject({ provider: "openai", settings_url: "/settings" });
    const anthropic = exhaustedError(
      "Claude Sonnet 4",
      [failure({ kind: "auth", status: 403, keySource: "user", provider: "anthropic" })],
      1000,
    );
    expect(anthropic.message).toMatch(/^Your Anthropic key in Settings was refused \(Anthropic/);
  });

  it("reports a time-out when every attempt timed out, and passes Retry-After on", () => {
    expect(exhaustedError("CoQuick", [failure({ kind: "timeout" })], 30_000)).toMatchObject({
      code: "provider_timeout",
      statusCode: 504,
      message: "CoQuick did not answer within 30 seconds. Please try again.",
    });
    const limited = exhaustedError(
      "CoQuick",
      [failure({ kind: "rate_limited", retryAfterMs: 4500 })],
      1000,
    );
    expect(limited.headers).toEqual({ "retry-after": "5" });
  });
});

describe("withTryAgain", () => {
  it("adds the advice once, and never to a refused key", () => {
    expect(withTryAgain("It failed.")).toBe("It failed. Please try again.");
    expect(withTryAgain("CoReason is unavailable. Please try again in a moment.")).toBe(
      "CoReason is unavailable. Please try again in a moment.",
    );
    expect(withTryAgain("Your OpenAI key in Settings was refused.", "provider_key_rejected")).toBe(
      "Your OpenAI key in Settings was refused.",
    );
  });
});

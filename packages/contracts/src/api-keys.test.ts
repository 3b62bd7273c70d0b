import { describe, expect, it } from "vitest";
import { apiKeyFormatProblem, ZApiKeyRequest } from "./api-keys";

const GOOGLE_KEY = `AIzaSy${"A".repeat(33)}`;

describe("apiKeyFormatProblem", () => {
  it("accepts each provider's own key shape", () => {
    expect(apiKeyFormatProblem("openai", "sk-proj-abc_DEF-123")).toBeNull();
    expect(apiKeyFormatProblem("openai", "sk-svcacct-abc")).toBeNull();
    expect(apiKeyFormatProblem("anthropic", "sk-ant-api03-abc")).toBeNull();
    expect(apiKeyFormatProblem("google", GOOGLE_KEY)).toBeNull();
    expect(apiKeyFormatProblem("openai-compatible", "anything-goes")).toBeNull();
  });

  it("names the provider a key pasted into the wrong one belongs to", () => {
    expect(apiKeyFormatProblem("openai", "sk-ant-api03-abc")).toBe(
      "This looks like an Anthropic key: choose Anthropic as the provider.",
    );
    expect(apiKeyFormatProblem("google", "sk-proj-abc")).toBe(
      "This looks like an OpenAI key: choose OpenAI as the provider.",
    );
    expect(apiKeyFormatProblem("anthropic", GOOGLE_KEY)).toBe(
      "This looks like a Google key: choose Google as the provider.",
    );
  });

  it("says what the provider's keys look like otherwise", () => {
    expect(apiKeyFormatProblem("google", "AIza-short")).toBe(
      'This is not a Google key. A Google AI Studio key starts with "AIza" and is 39 characters long.',
    );
    expect(apiKeyFormatProblem("anthropic", "ant-123")).toBe(
      'This is not an Anthropic key. An Anthropic key starts with "sk-ant-".',
    );
  });

  it("is part of the request schema, on the apiKey field", () => {
    const parsed = ZApiKeyRequest.safeParse({ provider: "openai", apiKey: "key-123" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["apiKey"]);
  });
});

import { z } from "zod";
import { PROVIDER_NAMES, type TProviderId, ZProviderId } from "./models";

// ---------------------------------------------------------------------------------------
// Bring your own key (the product overview and the API POST /users/test-api-key): provider keys a user stores,
// encrypted at rest and never sent back; only the last four characters are shown.
// Which models a key serves and what a refused key does: docs/decisions/029.
// ---------------------------------------------------------------------------------------

export const API_KEY_MAX_LENGTH = 1024;
export const BASE_URL_MAX_LENGTH = 2048;

/** Only a self-hosted, OpenAI-compatible server is reached at an address the user gives. */
export const PROVIDERS_WITH_BASE_URL: readonly TProviderId[] = ["openai-compatible"];

/**
 * What each provider's keys look like, checked before any call: a key pasted into the wrong
 * provider, or cut short, is answered at once instead of after a round trip to the provider.
 * An OpenAI-compatible server takes whatever its operator chose, so it has no format.
 */
export const API_KEY_FORMATS: Partial<Record<TProviderId, { pattern: RegExp; hint: string }>> = {
  anthropic: {
    pattern: /^sk-ant-[A-Za-z0-9_-]+$/,
    hint: 'An Anthropic key starts with "sk-ant-".',
  },
  openai: {
    pattern: /^sk-(?!ant-)[A-Za-z0-9_-]+$/,
    hint: 'An OpenAI key starts with "sk-" (for example sk-proj-…).',
  },
  google: {
    pattern: /^AIza[0-9A-Za-z_-]{35}$/,
    hint: 'A Google AI Studio key starts with "AIza" and is 39 characters long.',
  },
};

/** Why `apiKey` cannot be a key of `provider`, or null when its format fits. */
export function apiKeyFormatProblem(provider: TProviderId, apiKey: string): string | null {
  const format = API_KEY_FORMATS[provider];
  if (!format || format.pattern.test(apiKey)) return null;
  const other = (Object.keys(API_KEY_FORMATS) as TProviderId[]).find(
    (p) => p !== provider && API_KEY_FORMATS[p]?.pattern.test(apiKey),
  );
  if (other) {
    return `This looks like ${withArticle(PROVIDER_NAMES[other])} key: choose ${PROVIDER_NAMES[other]} as the provider.`;
  }
  return `This is not ${withArticle(PROVIDER_NAMES[provider])} key. ${format.hint}`;
}

function withArticle(name: string): string {
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}

const apiKeyFields = {
  provider: ZProviderId,
  apiKey: z
    .string()
    .trim()
    .min(1, { error: "Enter the API key." })
    .max(API_KEY_MAX_LENGTH, {
      error: `The key is longer than ${API_KEY_MAX_LENGTH} characters.`,
    })
    .regex(/^[\x21-\x7e]+$/, { error: "An API key has no spaces or special characters." }),
  baseURL: z
    .url({ protocol: /^https?$/, error: "Enter an http:// or https:// address." })
    .max(BASE_URL_MAX_LENGTH)
    .optional(),
};

function checkKeyRequest(
  value: { provider: TProviderId; apiKey: string; baseURL?: string | undefined },
  ctx: z.RefinementCtx,
) {
  const takesBaseUrl = PROVIDERS_WITH_BASE_URL.includes(value.provider);
  if (takesBaseUrl && !value.baseURL) {
    ctx.addIssue({
      code: "custom",
      path: ["baseURL"],
      message: `Give the address of your ${PROVIDER_NAMES[value.provider]} server, e.g. https://llm.example.com/v1.`,
    });
  }
  if (!takesBaseUrl && value.baseURL) {
    ctx.addIssue({
      code: "custom",
      path: ["baseURL"],
      message: `${PROVIDER_NAMES[value.provider]} keys are always used with ${PROVIDER_NAMES[value.provider]} itself; only an OpenAI-compatible server takes a base URL.`,
    });
  }
  const problem = apiKeyFormatProblem(value.provider, value.apiKey);
  if (problem) ctx.addIssue({ code: "custom", path: ["apiKey"], message: problem });
}

/** POST /api/users/test-api-key: the key is tested, not stored. */
export const ZApiKeyRequest = z.object(apiKeyFields).superRefine(checkKeyRequest);
export type TApiKeyRequest = z.infer<typeof ZApiKeyRequest>;

/** PUT /api/users/api-keys. */
export const ZSaveApiKeyRequest = z
  .object({
    ...apiKeyFields,
    /** Test the key with one real call first and store the verdict with it. */
    test: z.boolean().optional(),
    /**
     * With `test`: store the key even when the test fails. Without it, a failed test answers
     * 422 `api_key_test_failed` and nothing is stored, so the user can confirm first.
     */
    saveIfTestFails: z.boolean().optional(),
  })
  .superRefine(checkKeyRequest);
export type TSaveApiKeyRequest = z.infer<typeof ZSaveApiKeyRequest>;

export const ZTestApiKeyRequest = ZApiKeyRequest;
export type TTestApiKeyRequest = TApiKeyRequest;

/**
 * What a key test found. `refused`: the provider said 401/403, the key itself is wrong.
 * `unreachable`: no connection, a time-out or a 5xx, the provider's side. `rate_limited`: 429.
 * `failed`: anything else (a server that is not an OpenAI-compatible API, an address Cohort
 * does not call, another 4xx).
 */
export const API_KEY_TEST_RESULTS = [
  "valid",
  "refused",
  "unreachable",
  "rate_limited",
  "failed",
] as const;
export const ZApiKeyTestResult = z.enum(API_KEY_TEST_RESULTS);
export type TApiKeyTestResult = z.infer<typeof ZApiKeyTestResult>;

/** Short words for a verdict, as Settings shows them next to the key. */
export const API_KEY_TEST_RESULT_LABELS: Record<TApiKeyTestResult, string> = {
  valid: "Valid",
  refused: "Key refused",
  unreachable: "Provider unreachable",
  rate_limited: "Rate limited",
  failed: "Test failed",
};

export const ZTestApiKeyResponse = z.object({
  valid: z.boolean(),
  result: ZApiKeyTestResult,
  /** Says what happened in words for people; never quotes the key or the provider's text. */
  message: z.string(),
  tested_at: z.string(),
});
export type TTestApiKeyResponse = z.infer<typeof ZTestApiKeyResponse>;

/** A stored key's last test (null before its first). */
export const ZApiKeyLastTest = z.object({
  result: ZApiKeyTestResult,
  message: z.string(),
  tested_at: z.string(),
});
export type TApiKeyLastTest = z.infer<typeof ZApiKeyLastTest>;

/** A stored key as the API shows it: never the key itself. */
export const ZApiKeyInfo = z.object({
  provider: ZProviderId,
  /** The key's last four characters, or "" for keys too short to show any of. */
  last4: z.string(),
  baseURL: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  last_test: ZApiKeyLastTest.nullable(),
});
export type TApiKeyInfo = z.infer<typeof ZApiKeyInfo>;

export const ZApiKeysResponse = z.object({ keys: z.array(ZApiKeyInfo) });
export type TApiKeysResponse = z.infer<typeof ZApiKeysResponse>;

export const ZApiKeyResponse = z.object({ key: ZApiKeyInfo });
export type TApiKeyResponse = z.infer<typeof ZApiKeyResponse>;

export const ZApiKeyParams = z.object({ provider: ZProviderId });

export const API_KEY_ERROR_CODES = {
  /** A user-supplied base URL points at a private, loopback, link-local or other address. */
  baseUrlNotAllowed: "base_url_not_allowed",
  /** PUT with `test`: the key failed its test; `details` has the verdict. Nothing stored. */
  testFailed: "api_key_test_failed",
} as const;

/** The details of a 422 `api_key_test_failed`. */
export const ZApiKeyTestFailedDetails = z.object({
  result: ZApiKeyTestResult,
  message: z.string(),
});

/** The test's verdicts, shared so the web app and tests read the same words. */
export const API_KEY_MESSAGES = {
  valid: "The key works: the provider accepted a test call.",
  removed: "Key removed.",
} as const;

/** The verdict on a key its provider answered 401/403 to. */
export function keyRefusedByProviderMessage(provider: TProviderId, status: number): string {
  return `${PROVIDER_NAMES[provider]} refused this key (${status}). Check that it was copied whole and is still active.`;
}

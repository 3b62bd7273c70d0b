import { z } from "zod";
import { PROVIDER_NAMES, type TProviderId, ZProviderId } from "./models";

// ---------------------------------------------------------------------------------------
// Bring your own key (spec §1, §7 POST /users/test-api-key): provider keys a user stores,
// encrypted at rest and never sent back; only the last four characters are shown.
// ---------------------------------------------------------------------------------------

export const API_KEY_MAX_LENGTH = 1024;
export const BASE_URL_MAX_LENGTH = 2048;

/** Only a self-hosted, OpenAI-compatible server is reached at an address the user gives. */
export const PROVIDERS_WITH_BASE_URL: readonly TProviderId[] = ["openai-compatible"];

export const ZApiKeyRequest = z
  .object({
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
  })
  .superRefine((value, ctx) => {
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
  });
export type TApiKeyRequest = z.infer<typeof ZApiKeyRequest>;

/** POST /api/users/test-api-key takes the same fields: the key is tested, not stored. */
export const ZTestApiKeyRequest = ZApiKeyRequest;
export type TTestApiKeyRequest = TApiKeyRequest;

export const ZTestApiKeyResponse = z.object({
  valid: z.boolean(),
  /** Says what happened in words for people; never quotes the key or the provider's text. */
  message: z.string(),
});
export type TTestApiKeyResponse = z.infer<typeof ZTestApiKeyResponse>;

/** A stored key as the API shows it: never the key itself. */
export const ZApiKeyInfo = z.object({
  provider: ZProviderId,
  /** The key's last four characters, or "" for keys too short to show any of. */
  last4: z.string(),
  baseURL: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
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
} as const;

/** The test's verdicts, shared so the web app and tests read the same words. */
export const API_KEY_MESSAGES = {
  valid: "The key works: the provider accepted a test call.",
  rejected: "The provider rejected this key.",
  removed: "Key removed.",
} as const;

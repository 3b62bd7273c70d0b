import { z } from "zod";

// ---------------------------------------------------------------------------------------
// Personal access tokens (decision 033): let a user's own code call Cohort's public API
// (`/api/v1`, `/api/mcp`) with `Authorization: Bearer cohort_pat_…`. Not the provider keys
// of api-keys.ts (those are the user's keys for OpenAI & co.). Decision 033.
// ---------------------------------------------------------------------------------------

/** Every access token starts with this, so it is recognised (and never taken for a sign-in). */
export const ACCESS_TOKEN_PREFIX = "cohort_pat_";

export const ACCESS_TOKEN_SCOPES = ["chat", "sessions:read"] as const;
export const ZAccessTokenScope = z.enum(ACCESS_TOKEN_SCOPES);
export type TAccessTokenScope = z.infer<typeof ZAccessTokenScope>;
/** The name the interfaces use. */
export type AccessTokenScope = TAccessTokenScope;

export const ACCESS_TOKEN_SCOPE_LABELS: Record<TAccessTokenScope, string> = {
  chat: "Chat: run models and the agent team, spending your credits",
  "sessions:read": "Read sessions: list your sessions and read their messages",
};

/** Lifetimes offered on creation; null (no expiry) is offered too. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const ACCESS_TOKEN_MAX_EXPIRY_DAYS = 365;
/** Active (unrevoked, unexpired) tokens a user may hold at once. */
export const ACCESS_TOKENS_PER_USER = 20;
export const ACCESS_TOKEN_NAME_MAX_LENGTH = 64;

export const ZAccessTokenName = z
  .string()
  .trim()
  .min(1, { error: "Give the token a name, e.g. where it will be used." })
  .max(ACCESS_TOKEN_NAME_MAX_LENGTH, {
    error: `The name is longer than ${ACCESS_TOKEN_NAME_MAX_LENGTH} characters.`,
  })
  .regex(/^\P{Cc}+$/u, { error: "The name cannot contain control characters." });

export const ZCreateAccessTokenRequest = z.object({
  name: ZAccessTokenName,
  scopes: z
    .array(ZAccessTokenScope)
    .min(1, { error: "Choose at least one scope." })
    .transform((scopes) => [...new Set(scopes)]),
  /** Days until it expires; null or absent: it never expires. */
  expires_in_days: z
    .number()
    .int()
    .min(1)
    .max(ACCESS_TOKEN_MAX_EXPIRY_DAYS, {
      error: `A token can last at most ${ACCESS_TOKEN_MAX_EXPIRY_DAYS} days.`,
    })
    .nullable()
    .optional(),
});
export type TCreateAccessTokenRequest = z.infer<typeof ZCreateAccessTokenRequest>;

/** A token as the API lists it: never the token itself, only its start and last four. */
export const ZAccessTokenInfo = z.object({
  id: z.string(),
  name: z.string(),
  /** What the token starts with (`cohort_pat_`) and its last four characters, for telling tokens apart. */
  prefix: z.string(),
  last4: z.string(),
  scopes: z.array(ZAccessTokenScope),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type TAccessTokenInfo = z.infer<typeof ZAccessTokenInfo>;

export const ZAccessTokensResponse = z.object({ tokens: z.array(ZAccessTokenInfo) });
export type TAccessTokensResponse = z.infer<typeof ZAccessTokensResponse>;

/** The answer to a creation: the only time the token itself is ever sent. */
export const ZCreatedAccessTokenResponse = z.object({
  token: z.string(),
  info: ZAccessTokenInfo,
});
export type TCreatedAccessTokenResponse = z.infer<typeof ZCreatedAccessTokenResponse>;

export const ZAccessTokenParams = z.object({ id: z.string().max(64) });

export const ACCESS_TOKEN_ERROR_CODES = {
  /** No, an unknown, expired or revoked token (401). */
  invalid: "invalid_access_token",
  /** The token lacks the scope the call needs (403). */
  insufficientScope: "insufficient_scope",
  /** The user already holds ACCESS_TOKENS_PER_USER active tokens (409). */
  limitReached: "access_token_limit",
} as const;

export const ACCESS_TOKEN_MESSAGES = {
  missing:
    "This call needs an access token: send `Authorization: Bearer cohort_pat_…` (create one in Settings → Access tokens).",
  invalid: "The access token is invalid, expired or revoked.",
  insufficientScope: (scope: TAccessTokenScope) =>
    `This access token lacks the "${scope}" scope this call needs. Create a token with it in Settings → Access tokens.`,
  rateLimited: (seconds: number) =>
    `Too many requests with this access token. Please wait ${seconds} seconds and try again.`,
  limitReached: `You already have ${ACCESS_TOKENS_PER_USER} active access tokens. Revoke one you no longer use first.`,
  notFound: "No such access token.",
  revoked: "Access token revoked. It stops working at once.",
  shownOnce: "Copy this token now: it will not be shown again.",
} as const;

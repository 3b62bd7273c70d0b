import { z } from "zod";
import { ZFirebaseClientConfig } from "./identity";
import { SUBSCRIPTION_TIERS } from "./plans";

/** Accounts, sign-in, email flows and Google sign-in (the data model, the validation rules and the API). */

/**
 * The HttpOnly cookie that carries the sign-in token. Its name predates the rename of
 * sign-ins (decision 023) and stays: renaming it would sign every browser out.
 */
export const SIGN_IN_COOKIE = "cohort_session";

/** Error codes of the accounts calls; the web client switches on these, never on messages. */
export const AUTH_ERROR_CODES = {
  invalidCredentials: "invalid_credentials",
  emailTaken: "email_taken",
  accountExists: "account_exists",
  weakPassword: "weak_password",
  invalidToken: "invalid_token",
  tokenExpired: "token_expired",
  invalidIdToken: "invalid_id_token",
  emailAlreadyVerified: "email_already_verified",
} as const;

export const AUTH_MESSAGES = {
  unauthorized: "Please sign in to continue.",
  invalidCredentials: "Invalid email or password.",
  emailTaken: "An account with this email already exists.",
  forgotPassword:
    "If an account exists for that address, we have sent a link to reset the password.",
  googleNotConfigured: "Google login is not available - Firebase not configured",
} as const;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
/** The validation rules hint, used word for word as the too-short message. */
export const PASSWORD_TOO_SHORT_MESSAGE = "Password must be at least 6 characters long.";
export const PASSWORD_TOO_LONG_MESSAGE = "Password must be at most 128 characters long.";

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { error: "Email address is too long." })
  .pipe(z.email({ error: "Enter a valid email address." }));

/** A password being chosen (sign-up, reset). The server also refuses common passwords. */
export const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT_MESSAGE })
  .max(PASSWORD_MAX_LENGTH, { error: PASSWORD_TOO_LONG_MESSAGE });

const ZName = z.string().trim().min(1).max(100);

export const USER_ROLES = ["user", "admin"] as const;
export type TUserRole = (typeof USER_ROLES)[number];

/** The route table: the display name shown when no name is known. */
export const DEFAULT_DISPLAY_NAME = "Demo User";

export const ZUserProfile = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  uid: z
    .string()
    .nullable()
    .describe("The identity provider's user id (Firebase uid) of the latest popup sign-in"),
  emailVerified: z.boolean(),
  role: z.enum(USER_ROLES),
  credits_remaining: z.number(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  cochat_access: z.boolean(),
  created_at: z.string().describe("ISO 8601 time"),
});
export type TUserProfile = z.infer<typeof ZUserProfile>;

export const ZUserResponse = z.object({ user: ZUserProfile });
export type TUserResponse = z.infer<typeof ZUserResponse>;

/** GET /api/auth/me: who is signed in, if anyone — a signed-out answer is not an error. */
export const ZSignedInUserResponse = z.object({ user: ZUserProfile.nullable() });
export type TSignedInUserResponse = z.infer<typeof ZSignedInUserResponse>;

export const ZSignupRequest = z.object({
  email: ZEmail,
  password: ZNewPassword,
  firstName: ZName,
  lastName: ZName,
  agreementId: z
    .string()
    .optional()
    .describe("The agreement version shown in the sign-up modal; its acceptance is recorded"),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z.string().min(1, { error: "Enter your password." }).max(1024),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** The data model login response; sign-up and the Google calls answer the same. */
export const ZAuthResponse = z.object({
  success: z.literal(true),
  token: z.string().describe("Sign-in token for `Authorization: Bearer`; browsers use the cookie"),
  user: ZUserProfile,
});
export type TAuthResponse = z.infer<typeof ZAuthResponse>;

export const ZSuccessResponse = z.object({ success: z.literal(true), message: z.string() });
export type TSuccessResponse = z.infer<typeof ZSuccessResponse>;

export const ZForgotPasswordRequest = z.object({ email: ZEmail });
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

/**
 * POST /user-auth/email-status: whether an address is still free for a new account, asked
 * by the sign-up form before the agreement modal (decision 030).
 */
export const ZEmailStatusRequest = z.object({ email: ZEmail });
export type TEmailStatusRequest = z.infer<typeof ZEmailStatusRequest>;
export const ZEmailStatusResponse = z.object({
  email: z.string().describe("The address as the server compares it: trimmed, lowercase"),
  available: z.boolean().describe("false when an account already uses the address"),
});
export type TEmailStatusResponse = z.infer<typeof ZEmailStatusResponse>;

export const ZResetPasswordRequest = z.object({
  token: z.string().min(1).max(200),
  password: ZNewPassword,
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZVerifyEmailRequest = z.object({ token: z.string().min(1).max(200) });
export type TVerifyEmailRequest = z.infer<typeof ZVerifyEmailRequest>;

const ZPhotoUrl = z
  .url({ protocol: /^https?$/, error: "Enter an http(s) URL for the photo." })
  .max(2048)
  .nullable();

export const ZUpdateProfileRequest = z.object({
  firstName: ZName.optional(),
  lastName: ZName.optional(),
  displayName: ZName.optional(),
  photoURL: ZPhotoUrl.optional(),
  /** Alias of photoURL for clients that call it avatar; photoURL wins when both are sent. */
  avatar: ZPhotoUrl.optional(),
});
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

/** One sign-in: a browser or API client holding a token of this account. */
export const ZSignInInfo = z.object({
  id: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string().describe("When the sign-in ends at the latest (idle or absolute)"),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type TSignInInfo = z.infer<typeof ZSignInInfo>;

/** GET /api/auth/sign-ins: where the user is signed in. */
export const ZSignInListResponse = z.object({ sign_ins: z.array(ZSignInInfo) });
export type TSignInListResponse = z.infer<typeof ZSignInListResponse>;

export const ZAuthProviders = z.object({
  google: z.boolean(),
  googleMode: z.enum(["oidc", "firebase"]).nullable(),
  /** Public web configuration of the identity provider (the data model), when Firebase is set up. */
  firebase: ZFirebaseClientConfig.nullable(),
  welcomeCredits: z
    .number()
    .describe("Credits a new account receives once its email address is verified (0: none)"),
});
export type TAuthProviders = z.infer<typeof ZAuthProviders>;

/** The data model Google sync payload, plus the identity provider's ID token that proves it. */
export const ZGoogleRegisterRequest = z.object({
  uid: z.string().min(1).max(128),
  email: ZEmail.nullable().describe("null when the provider shares no address (some GitHub, X)"),
  displayName: z.string().max(200).nullish(),
  photoURL: z.string().max(2048).nullish(),
  idToken: z.string().min(1).max(8192).describe("The Firebase ID token of this user"),
});
export type TGoogleRegisterRequest = z.infer<typeof ZGoogleRegisterRequest>;

export const ZLogoutResponse = z.object({ success: z.literal(true) });
export type TLogoutResponse = z.infer<typeof ZLogoutResponse>;

import { z } from "zod";

/**
 * Sign-in through the identity provider (the product overview, the data model and the API): Firebase Authentication's popup
 * with Google, GitHub, Facebook and X (Twitter), and the accounts a user links in Settings.
 */

export const SIGN_IN_PROVIDERS = ["google", "github", "facebook", "twitter"] as const;
export const ZSignInProvider = z.enum(SIGN_IN_PROVIDERS);
export type TSignInProvider = z.infer<typeof ZSignInProvider>;

/** What each provider is called on buttons and in messages. */
export const SIGN_IN_PROVIDER_LABELS: Record<TSignInProvider, string> = {
  google: "Google",
  github: "GitHub",
  facebook: "Facebook",
  twitter: "X",
};

/** Firebase's provider id (`firebase.sign_in_provider`) of each provider. */
export const FIREBASE_PROVIDER_IDS: Record<TSignInProvider, string> = {
  google: "google.com",
  github: "github.com",
  facebook: "facebook.com",
  twitter: "twitter.com",
};

/** The data model identity provider client configuration, plus what this deployment enables. */
export const ZFirebaseClientConfig = z.object({
  apiKey: z.string(),
  authDomain: z.string(),
  projectId: z.string(),
  storageBucket: z.string().nullable(),
  messagingSenderId: z.string().nullable(),
  appId: z.string().nullable(),
  providers: z.array(ZSignInProvider).describe("Popup sign-in providers offered, in order"),
  emulatorUrl: z
    .string()
    .nullable()
    .describe("The Firebase Auth emulator the web SDK must talk to (tests, local dev)"),
});
export type TFirebaseClientConfig = z.infer<typeof ZFirebaseClientConfig>;

/** Error codes of identity-provider sign-in and linking; the web client switches on these. */
export const IDENTITY_ERROR_CODES = {
  /** An existing account has this email and the provider did not verify it. */
  unverifiedEmail: "identity_email_unverified",
  /** The provider account is already linked to another Cohort account. */
  identityInUse: "identity_in_use",
  /** Unlinking would leave the account without any way to sign in. */
  lastSignInMethod: "last_sign_in_method",
  /** This server has no identity provider (FIREBASE_* unset). */
  notConfigured: "identity_provider_not_configured",
  /** The token came from a sign-in method Cohort does not take through Firebase. */
  unsupportedProvider: "unsupported_provider",
} as const;

export const IDENTITY_MESSAGES = {
  lastSignInMethod:
    "This is the only way to sign in to your account. Set a password or link another account before removing it.",
  unverifiedEmail:
    "An account with this email already exists, and this provider has not verified the address. Sign in with your password, then link this provider in Settings.",
} as const;

export const ZLinkedIdentity = z.object({
  provider: ZSignInProvider,
  email: z.string().nullable(),
  linked_at: z.string().describe("ISO 8601 time"),
});
export type TLinkedIdentity = z.infer<typeof ZLinkedIdentity>;

/** GET /api/auth/identities: the ways the signed-in user can sign in. */
export const ZIdentityListResponse = z.object({
  identities: z.array(ZLinkedIdentity),
  hasPassword: z.boolean(),
});
export type TIdentityListResponse = z.infer<typeof ZIdentityListResponse>;

/** POST /api/auth/identities: link the provider account behind a fresh Firebase ID token. */
export const ZLinkIdentityRequest = z.object({
  idToken: z.string().min(1).max(8192).describe("The Firebase ID token of the popup sign-in"),
});
export type TLinkIdentityRequest = z.infer<typeof ZLinkIdentityRequest>;

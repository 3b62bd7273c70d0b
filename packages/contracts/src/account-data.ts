import { z } from "zod";

// ---------------------------------------------------------------------------------------
// All my data and deleting my account (decision 044, "Export and import"): the "download my
// data" and the erasure the privacy page promises.
// ---------------------------------------------------------------------------------------

export const ACCOUNT_DATA_ROUTES = {
  /** GET: the signed-in user's data as one zip. */
  export: "/api/account/export",
  /** DELETE: erases the signed-in user's account (with a confirmation body). */
  account: "/api/account",
} as const;

/** A zip is heavy to build (every session, every file): a few per hour per account. */
export const ACCOUNT_EXPORTS_PER_HOUR = 5;

/** The word typed to confirm the deletion, as the dialog asks for it. */
export const ACCOUNT_DELETE_WORD = "DELETE";

/**
 * The confirmation: the typed word, plus the password for an account that has one. An account
 * without a password (Google only) confirms with its email address instead.
 */
export const ZDeleteAccountRequest = z.object({
  confirm: z.literal(ACCOUNT_DELETE_WORD),
  password: z.string().max(1024).optional(),
  email: z.string().max(320).optional(),
});
export type TDeleteAccountRequest = z.infer<typeof ZDeleteAccountRequest>;

export const ZDeleteAccountResponse = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type TDeleteAccountResponse = z.infer<typeof ZDeleteAccountResponse>;

export const ACCOUNT_DATA_ERROR_CODES = {
  /** The password (or, without one, the email address) did not match. */
  confirmationFailed: "account_confirmation_failed",
  /** The user is the only owner of a team that has other members. */
  soleOwner: "account_sole_owner",
  /** A paid plan is still running at the payment provider. */
  subscriptionActive: "account_subscription_active",
} as const;

export const ACCOUNT_DATA_MESSAGES = {
  wrongPassword: "That password is not correct. Your account has not been deleted.",
  passwordRequired: "Enter your password to delete your account.",
  wrongEmail: "That is not the email address of this account. Your account has not been deleted.",
  soleOwner: (teams: readonly string[]) =>
    `You are the only owner of ${teams.map((name) => `“${name}”`).join(", ")}, which has other members. Make someone else an owner or delete the team first.`,
  subscriptionActive:
    "Your paid plan is still active. Cancel it in Billing first, then delete your account.",
  deleted: "Your account and its data have been deleted.",
} as const;

/** The download's file name: `cohort-data-2026-11-23.zip` (the UTC date it was made). */
export function accountDataFilename(now: Date = new Date()): string {
  return `cohort-data-${now.toISOString().slice(0, 10)}.zip`;
}

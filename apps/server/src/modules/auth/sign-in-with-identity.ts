import {
  AUTH_ERROR_CODES,
  IDENTITY_ERROR_CODES,
  IDENTITY_MESSAGES,
  SIGN_IN_PROVIDER_LABELS,
  type TUserProfile,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { grantSignupCredits } from "../credits/grant-credits";
import { createUser } from "../users/create-user";
import { findUserByEmail, findUserById } from "../users/find-user";
import { confirmEmail } from "./confirm-email";
import { findLinkedUserId, linkIdentity, type ProviderAccount } from "./link-identity";

/** What an identity provider vouches for, after its token has been verified. */
export interface VerifiedIdentity extends ProviderAccount {
  emailVerified: boolean;
  firstName?: string | undefined;
  lastName?: string | undefined;
  displayName?: string | undefined;
  photoUrl?: string | undefined;
}

function splitName(displayName: string | undefined): { first: string; last: string } {
  const parts = (displayName ?? "").trim().split(/\s+/).filter(Boolean);
  return { first: parts[0] ?? "", last: parts.slice(1).join(" ") };
}

/**
 * The account behind a provider identity: the one already linked to it; else the account with
 * the same address, linked now — only when the provider says it verified that address, or
 * anyone could take over an account by claiming its email at a provider; else a new account,
 * whose address counts as verified only if the provider verified it.
 */
export async function signInWithIdentity(
  db: Queryable,
  identity: VerifiedIdentity,
  options: { signupCredits: number } = { signupCredits: 0 },
): Promise<TUserProfile> {
  const linkedId = await findLinkedUserId(db, identity);
  if (linkedId) {
    const user = await findUserById(db, linkedId);
    if (user) return user;
  }
  const name = SIGN_IN_PROVIDER_LABELS[identity.provider];
  if (!identity.email) {
    throw new AppError(
      AUTH_ERROR_CODES.invalidIdToken,
      401,
      `Your ${name} account has no email address, so it cannot be used to sign in. Sign in another way and link ${name} in Settings.`,
    );
  }
  let user = await findUserByEmail(db, identity.email);
  if (user) {
    if (!identity.emailVerified) {
      throw new AppError(
        IDENTITY_ERROR_CODES.unverifiedEmail,
        409,
        IDENTITY_MESSAGES.unverifiedEmail,
      );
    }
    if (!user.emailVerified) {
      // The provider proved the mailbox, so the unverified password account is theirs too.
      await confirmEmail(db, user.id, identity.email, options.signupCredits);
      user = (await findUserById(db, user.id)) ?? user;
    }
  } else {
    const split = splitName(identity.displayName);
    user = await createUser(db, {
      email: identity.email,
      firstName: identity.firstName ?? split.first,
      lastName: identity.lastName ?? split.last,
      displayName: identity.displayName ?? null,
      photoUrl: identity.photoUrl ?? null,
      emailVerified: identity.emailVerified,
    });
    // Welcome credits come with a verified address (decision 017): now, or from the link.
    if (identity.emailVerified && (await grantSignupCredits(db, user.id, options.signupCredits))) {
      user = (await findUserById(db, user.id)) ?? user;
    }
  }
  await linkIdentity(db, user.id, identity);
  return user;
}

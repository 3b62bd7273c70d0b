import { AUTH_ERROR_CODES, type TUserProfile } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { grantSignupCredits } from "../credits/grant-credits";
import { createUser } from "../users/create-user";
import { findUserByEmail, findUserById } from "../users/find-user";
import { confirmEmail } from "./confirm-email";

/** What an identity provider vouches for, after its token has been verified. */
export interface VerifiedIdentity {
  provider: "google" | "firebase";
  subject: string;
  email: string | undefined;
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
 * anyone could take over an account by claiming its email at a provider; else a new account.
 */
export async function signInWithIdentity(
  db: Queryable,
  identity: VerifiedIdentity,
  options: { signupCredits: number } = { signupCredits: 0 },
): Promise<TUserProfile> {
  const linked = await db.query<{ user_id: string }>(
    "SELECT user_id FROM user_identities WHERE provider = $1 AND subject = $2",
    [identity.provider, identity.subject],
  );
  if (linked.rows[0]) {
    const user = await findUserById(db, linked.rows[0].user_id);
    if (user) return user;
  }
  if (!identity.email || !identity.emailVerified) {
    throw new AppError(
      AUTH_ERROR_CODES.invalidIdToken,
      401,
      "Your Google account has no verified email address, so it cannot be used to sign in.",
    );
  }
  let user = await findUserByEmail(db, identity.email);
  if (user) {
    if (!user.emailVerified) {
      // The provider proved the mailbox, so the unverified password account is theirs too.
      await confirmEmail(db, user.id, identity.email, options.signupCredits);
      user = (await findUserById(db, user.id)) ?? user;
    }
  } else {
    const name = splitName(identity.displayName);
    user = await createUser(db, {
      email: identity.email,
      firstName: identity.firstName ?? name.first,
      lastName: identity.lastName ?? name.last,
      displayName: identity.displayName ?? null,
      photoUrl: identity.photoUrl ?? null,
      emailVerified: true,
    });
    if (await grantSignupCredits(db, user.id, options.signupCredits)) {
      user = (await findUserById(db, user.id)) ?? user;
    }
  }
  await db.query(
    `INSERT INTO user_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, subject) DO NOTHING`,
    [identity.provider, identity.subject, user.id, identity.email],
  );
  return user;
}

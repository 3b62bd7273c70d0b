import {
  IDENTITY_ERROR_CODES,
  SIGN_IN_PROVIDER_LABELS,
  type TSignInProvider,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";

export interface ProviderAccount {
  provider: TSignInProvider;
  /** The account's id at the provider (Google's `sub`, GitHub's user id). */
  subject: string;
  email: string | undefined;
}

/** The Cohort account a provider account is linked to, if any. */
export async function findLinkedUserId(
  db: Queryable,
  account: Pick<ProviderAccount, "provider" | "subject">,
): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    "SELECT user_id FROM user_identities WHERE provider = $1 AND subject = $2",
    [account.provider, account.subject],
  );
  return rows[0]?.user_id ?? null;
}

/**
 * Links a provider account to a Cohort account. Linking it again to the same account is a
 * no-op; a provider account already linked to someone else is refused (409), so one Google
 * or GitHub account never signs in to two Cohort accounts.
 */
export async function linkIdentity(
  db: Queryable,
  userId: string,
  account: ProviderAccount,
): Promise<void> {
  const { rows } = await db.query<{ user_id: string }>(
    `INSERT INTO user_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, subject) DO UPDATE SET email = user_identities.email
     RETURNING user_id`,
    [account.provider, account.subject, userId, account.email ?? null],
  );
  if (rows[0]?.user_id !== userId) {
    const name = SIGN_IN_PROVIDER_LABELS[account.provider];
    throw new AppError(
      IDENTITY_ERROR_CODES.identityInUse,
      409,
      `This ${name} account is already linked to another Cohort account. Sign in with it to use that account, or unlink it there first.`,
    );
  }
}

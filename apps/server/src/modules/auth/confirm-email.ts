import type { Queryable } from "../../db/client";
import type { CreditChange } from "../credits/credits-deps";
import { grantSignupCredits } from "../credits/grant-credits";
import { markEmailVerified } from "../users/mark-email-verified";

export interface ConfirmedEmail {
  /** false when the address is no longer the account's: nothing changed. */
  verified: boolean;
  /** The welcome credits, granted the first time an address is confirmed (else null). */
  credits: CreditChange | null;
}

/**
 * The address is proven (a verification or reset link, or Google vouching for it): mark it
 * verified and grant the welcome credits, once per account. Credits wait for a proven
 * address so that throwaway sign-ups cannot farm them.
 */
export async function confirmEmail(
  tx: Queryable,
  userId: string,
  email: string,
  signupCredits: number,
): Promise<ConfirmedEmail> {
  if (!(await markEmailVerified(tx, userId, email))) return { verified: false, credits: null };
  return { verified: true, credits: await grantSignupCredits(tx, userId, signupCredits) };
}

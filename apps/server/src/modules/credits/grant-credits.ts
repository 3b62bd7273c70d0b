import type { Queryable } from "../../db/client";
import { applyLedgerEntry, type LedgerEntryInput } from "./apply-ledger-entry";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { getBalance } from "./get-balance";

export interface GrantResult {
  /** false when the same (reason, reference) had been applied before: nothing changed. */
  applied: boolean;
  balance: number;
  available: number;
}

/** One ledger entry in its own transaction, published to the user's sockets after commit. */
export async function grantCredits(
  deps: CreditsDeps,
  entry: LedgerEntryInput,
): Promise<GrantResult> {
  const change = await deps.db.transaction((tx) => applyLedgerEntry(tx, entry));
  if (change) {
    deps.publish([change]);
    return { applied: true, balance: change.balance, available: change.available };
  }
  return { applied: false, ...(await getBalance(deps.db, entry.userId)) };
}

/**
 * A new account's starting credits (SIGNUP_CREDITS), once per user, inside the transaction
 * that creates the account. No socket can be listening yet, so nothing is published.
 */
export async function grantSignupCredits(
  tx: Queryable,
  userId: string,
  credits: number,
): Promise<CreditChange | null> {
  if (credits <= 0) return null;
  return applyLedgerEntry(tx, {
    userId,
    credits,
    reason: "signup_grant",
    reference: userId,
    description: "Welcome credits",
  });
}

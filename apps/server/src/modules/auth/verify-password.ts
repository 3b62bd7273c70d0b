import { argon2 } from "./hash-password";

/** A malformed stored hash counts as a wrong password, never as an error the caller sees. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2().verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * What a password is checked against when there is no account (or no password) to check it
 * against: the hash of a random password nobody kept, at PASSWORD_HASH_OPTIONS' costs
 * (`needsRehash` of it is false; check-password-policy.test.ts). A constant, not a hash made
 * at start-up, so argon2 loads at the first password check of either kind and the first
 * sign-in with an unknown address costs what the first with a known one does (decision 085).
 */
export const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$/PnwAzzW+/fOQ8xBEp+eYg$7bKeG/+Zbdij3wLu+6oDZn8v5TfjXYHoU+VlaQfF2BY";

/**
 * Spends the same time as a real check when there is no account (or no password) to check
 * against, so response time does not tell an attacker which addresses have accounts.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}

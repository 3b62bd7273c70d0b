import { randomBytes } from "node:crypto";
import { verify } from "@node-rs/argon2";
import { hashPassword } from "./hash-password";

let dummyHash: Promise<string> | null = null;

/** A malformed stored hash counts as a wrong password, never as an error the caller sees. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * Spends the same time as a real check when there is no account (or no password) to check
 * against, so response time does not tell an attacker which addresses have accounts.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  await verifyPassword(await prepareDummyHash(), password);
  return false;
}

/**
 * Made once, at start-up, so that even the first sign-in with an unknown address costs one
 * verify — not a hash and a verify, which would stand out.
 */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("base64url"));
  return dummyHash;
}

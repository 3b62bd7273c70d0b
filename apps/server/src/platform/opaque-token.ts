import { createHash, randomBytes } from "node:crypto";

/**
 * Secrets handed out in links and headers (sign-ins, email links, access tokens, workspace
 * invitations). Here, below the modules, so every module that issues one uses the same two.
 */

/** 256 random bits: unguessable, so the token itself needs no signature. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored: a leaked table does not let anyone sign in or reset a password. */
export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

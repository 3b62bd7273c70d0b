import { hash, randomBytes } from "node:crypto";

/**
 * Secrets handed out in links and headers (sign-ins, email links, access tokens, workspace
 * invitations). Here, below the modules, so every module that issues one uses the same two.
 */

/** 256 random bits: unguessable, so the token itself needs no signature. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Only this digest is stored: a leaked table does not let anyone sign in or reset a password.
 * Every authenticated request hashes its sign-in's token: the one-shot `hash` (the same
 * SHA-256) makes no Hash object per request (decision 088).
 */
export function hashOpaqueToken(token: string): string {
  return hash("sha256", token, "base64url");
}

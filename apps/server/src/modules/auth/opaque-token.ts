import { createHash, randomBytes } from "node:crypto";

/** 256 random bits: unguessable, so the token itself needs no signature. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored: a leaked table does not let anyone sign in or reset a password. */
export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

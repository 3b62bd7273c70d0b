import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for provider keys at rest. The cipher key is derived from ENCRYPTION_KEY with
 * HKDF (so the same secret can serve other purposes without reusing a key), each value gets
 * a fresh 12-byte IV, and the row it belongs to (user and provider) is bound in as
 * additional data, so a ciphertext copied into another row does not decrypt. Every value
 * names the key that sealed it: after a rotation, PREVIOUS_ENCRYPTION_KEYS still opens it.
 */

export interface KeyRing {
  current: Buffer;
  previous: readonly Buffer[];
}

export interface SealedSecret {
  ciphertext: string;
  iv: string;
  tag: string;
  /** Identifies the key (not the key itself): a hash of the derived cipher key. */
  keyId: string;
}

const HKDF_INFO = "cohort provider api keys v1";

interface DerivedKey {
  id: string;
  key: Buffer;
}

const derived = new WeakMap<Buffer, DerivedKey>();

function derive(secret: Buffer): DerivedKey {
  let found = derived.get(secret);
  if (!found) {
    const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), HKDF_INFO, 32));
    const id = createHash("sha256").update(key).digest("hex").slice(0, 16);
    found = { id, key };
    derived.set(secret, found);
  }
  return found;
}

export function currentKeyId(ring: KeyRing): string {
  return derive(ring.current).id;
}

export function sealSecret(ring: KeyRing, plaintext: string, context: string): SealedSecret {
  const { id, key } = derive(ring.current);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    ciphertext: ciphertext.toString("base64"),
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    keyId: id,
  };
}

export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`stored secret cannot be decrypted: ${reason}`);
    this.name = "SecretUnreadableError";
  }
}

/** Throws SecretUnreadableError when no key of the ring sealed it or it was tampered with. */
export function openSecret(ring: KeyRing, sealed: SealedSecret, context: string): string {
  const candidate = [ring.current, ...ring.previous].map(derive).find((k) => k.id === sealed.keyId);
  if (!candidate) throw new SecretUnreadableError(`unknown key id ${sealed.keyId}`);
  try {
    const decipher = createDecipheriv(
      "aes-256-gcm",
      candidate.key,
      Buffer.from(sealed.iv, "base64"),
      { authTagLength: 16 },
    );
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, "base64")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new SecretUnreadableError("authentication failed");
  }
}

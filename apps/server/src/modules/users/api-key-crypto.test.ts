import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { currentKeyId, openSecret, SecretUnreadableError, sealSecret } from "./api-key-crypto";

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const ringA = { current: keyA, previous: [] };
const SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";

describe("provider key encryption", () => {
  it("round-trips, with a fresh IV per value and no plaintext in the sealed parts", () => {
    const one = sealSecret(ringA, SECRET, "row-1");
    const two = sealSecret(ringA, SECRET, "row-1");
    expect(one.iv).not.toBe(two.iv);
    expect(one.ciphertext).not.toBe(two.ciphertext);
    expect(Buffer.from(one.iv, "base64")).toHaveLength(12);
    expect(Buffer.from(one.tag, "base64")).toHaveLength(16);
    expect(JSON.stringify(one)).not.toContain(SECRET.slice(8));
    expect(openSecret(ringA, one, "row-1")).toBe(SECRET);
  });

  it("opens only in its own row: the context is authenticated", () => {
    const sealed = sealSecret(ringA, SECRET, "user-1:openai");
    expect(() => openSecret(ringA, sealed, "user-2:openai")).toThrow(SecretUnreadableError);
  });

  it("detects tampering with the ciphertext or the tag", () => {
    const sealed = sealSecret(ringA, SECRET, "row");
    const bytes = Buffer.from(sealed.ciphertext, "base64");
    bytes[0] = (bytes[0] as number) ^ 1;
    expect(() =>
      openSecret(ringA, { ...sealed, ciphertext: bytes.toString("base64") }, "row"),
    ).toThrow(SecretUnreadableError);
    expect(() =>
      openSecret(ringA, { ...sealed, tag: randomBytes(16).toString("base64") }, "row"),
    ).toThrow(SecretUnreadableError);
  });

  it("keeps opening old values after a key rotation, and names each key by an id", () => {
    const old = sealSecret(ringA, SECRET, "row");
    const rotated = { current: keyB, previous: [keyA] };
    expect(old.keyId).toBe(currentKeyId(ringA));
    expect(currentKeyId(rotated)).not.toBe(old.keyId);
    expect(currentKeyId(rotated)).not.toContain(keyB.toString("hex").slice(0, 16));
    expect(openSecret(rotated, old, "row")).toBe(SECRET);
    expect(() => openSecret({ current: keyB, previous: [] }, old, "row")).toThrow(/unknown key id/);
  });
});

import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/errors";
import {
  COMMON_PASSWORD_MESSAGE,
  checkPasswordPolicy,
  EMAIL_AS_PASSWORD_MESSAGE,
} from "./check-password-policy";
import { COMMON_PASSWORDS } from "./common-passwords";
import { hashPassword, needsRehash } from "./hash-password";
import { DUMMY_HASH } from "./verify-password";

function refusal(password: string, email?: string): string | null {
  try {
    checkPasswordPolicy(password, email);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
}

describe("password policy", () => {
  it("ships a list of over a thousand common passwords, lower-cased", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(1000);
    for (const word of [
      "123456",
      "password",
      "qwerty",
      "111111",
      "abc123",
      "letmein",
      "iloveyou",
    ]) {
      expect(COMMON_PASSWORDS.has(word)).toBe(true);
    }
    for (const word of COMMON_PASSWORDS) expect(word).toBe(word.toLowerCase());
  });

  it("refuses short, long, common and email-like passwords with clear messages", () => {
    expect(refusal("abc12")).toBe("Password must be at least 6 characters long.");
    expect(refusal("x".repeat(129))).toBe("Password must be at most 128 characters long.");
    expect(refusal("PassWord1")).toBe(COMMON_PASSWORD_MESSAGE);
    expect(refusal("ada.lovelace", "Ada.Lovelace@example.com")).toBe(EMAIL_AS_PASSWORD_MESSAGE);
    expect(refusal("correct horse battery staple", "ada@example.com")).toBeNull();
  });

  it("asks for a rehash only when the stored hash used other costs", async () => {
    expect(needsRehash(await hashPassword("some passphrase"))).toBe(false);
    expect(
      needsRehash(
        "$argon2id$v=19$m=4096,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo0NTY",
      ),
    ).toBe(true);
    expect(needsRehash("not a hash")).toBe(true);
  });

  it("checks unknown addresses against a hash made at today's costs", () => {
    expect(needsRehash(DUMMY_HASH)).toBe(false);
  });
});

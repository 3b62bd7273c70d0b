import {
  AUTH_ERROR_CODES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_LONG_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { COMMON_PASSWORDS } from "./common-passwords";

export const COMMON_PASSWORD_MESSAGE =
  "This password is too common and easy to guess. Please choose a different one.";
export const EMAIL_AS_PASSWORD_MESSAGE =
  "Your password must not be your email address. Please choose a different one.";

function weak(message: string): AppError {
  return new AppError(AUTH_ERROR_CODES.weakPassword, 400, message);
}

/**
 * The rules for a new password (NIST SP 800-63B style): a length range, and no password an
 * attacker would try first. No composition rules: they make passwords harder to remember
 * without making them harder to guess.
 */
export function checkPasswordPolicy(password: string, email?: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw weak(PASSWORD_TOO_SHORT_MESSAGE);
  if (password.length > PASSWORD_MAX_LENGTH) throw weak(PASSWORD_TOO_LONG_MESSAGE);
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) throw weak(COMMON_PASSWORD_MESSAGE);
  if (email) {
    const address = email.toLowerCase();
    if (lowered === address || lowered === address.split("@", 1)[0]) {
      throw weak(EMAIL_AS_PASSWORD_MESSAGE);
    }
  }
}

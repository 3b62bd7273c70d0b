import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  type TLoginRequest,
  type TUserRole,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { findUserByEmail } from "../users/find-user";
import type { AuthDeps, RequestMeta } from "./auth-deps";
import { hashPassword, needsRehash } from "./hash-password";
import { issueSignIn } from "./issue-sign-in";
import { beginLoginAttempt } from "./login-throttle";
import { findPasswordHash, setPasswordHash } from "./set-password";
import type { SignedIn } from "./sign-up";
import { verifyDummyPassword, verifyPassword } from "./verify-password";

/**
 * Email + password sign-in. The attempt is counted before anything is checked (so parallel
 * guesses cannot slip past the budget). Every failure — unknown address, no password
 * (Google-only account), wrong password, or not the required role — is the same 401 after
 * the same work, so nobody learns which addresses have accounts. A correct password gives
 * its count back, even where the role is refused: a user who tries the admin sign-in with
 * their own password has made no failed attempt.
 */
export async function logIn(
  deps: AuthDeps,
  input: TLoginRequest,
  meta: RequestMeta & { deviceId: string | null },
  options: { role?: TUserRole } = {},
): Promise<SignedIn> {
  const attempt = await beginLoginAttempt(deps.db, {
    email: input.email,
    ip: meta.ip,
    deviceId: meta.deviceId,
  });

  const user = await findUserByEmail(deps.db, input.email);
  const stored = await findPasswordHash(deps.db, user?.id ?? null);
  const valid = stored
    ? await verifyPassword(stored, input.password)
    : await verifyDummyPassword(input.password);
  if (user && stored && valid) await attempt.succeeded();
  if (!user || !stored || !valid || (options.role && user.role !== options.role)) {
    throw new AppError(AUTH_ERROR_CODES.invalidCredentials, 401, AUTH_MESSAGES.invalidCredentials);
  }

  if (needsRehash(stored))
    await setPasswordHash(deps.db, user.id, await hashPassword(input.password));
  return { user, ...(await issueSignIn(deps.db, user.id, deps.signIns, meta)) };
}

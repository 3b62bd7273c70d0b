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
import { issueSession } from "./issue-session";
import { findPasswordHash, setPasswordHash } from "./set-password";
import type { SignedIn } from "./sign-up";
import { assertNotThrottled, clearAttempts, countAttempt, THROTTLE } from "./throttle";
import { verifyDummyPassword, verifyPassword } from "./verify-password";

/**
 * Email + password sign-in. Every failure — unknown address, no password (Google-only
 * account), wrong password, or not the required role — is the same 401 after the same
 * amount of work, so nobody learns which addresses have accounts.
 */
export async function logIn(
  deps: AuthDeps,
  input: TLoginRequest,
  meta: RequestMeta,
  options: { role?: TUserRole } = {},
): Promise<SignedIn> {
  const rules = [THROTTLE.loginPerAccount(input.email), THROTTLE.loginPerIp(meta.ip)];
  await assertNotThrottled(deps.db, rules, "failed sign-in attempts");

  const user = await findUserByEmail(deps.db, input.email);
  const stored = await findPasswordHash(deps.db, user?.id ?? null);
  const valid = stored
    ? await verifyPassword(stored, input.password)
    : await verifyDummyPassword(input.password);
  if (!user || !stored || !valid || (options.role && user.role !== options.role)) {
    await countAttempt(deps.db, rules);
    throw new AppError(AUTH_ERROR_CODES.invalidCredentials, 401, AUTH_MESSAGES.invalidCredentials);
  }

  await clearAttempts(deps.db, THROTTLE.loginPerAccount(input.email));
  if (needsRehash(stored))
    await setPasswordHash(deps.db, user.id, await hashPassword(input.password));
  const session = await issueSession(deps.db, user.id, deps.sessions, meta);
  return { user, token: session.token, sessionId: session.sessionId };
}

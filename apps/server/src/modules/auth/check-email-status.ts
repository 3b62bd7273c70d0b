import type { TEmailStatusResponse } from "@cohort/contracts";
import { normalizeEmail } from "../users/create-user";
import { findUserByEmail } from "../users/find-user";
import type { AuthDeps, RequestMeta } from "./auth-deps";
import { consumeAttempt, THROTTLE } from "./throttle";

/**
 * Whether an address is free for a new account, so the sign-up form can say "you already
 * have an account" before the agreement modal. Sign-up itself answers 409 for a taken
 * address, so this reveals nothing new; it is counted per IP address like sign-up, so it is
 * no faster a way to test addresses than sign-up already is (decision 030).
 */
export async function checkEmailStatus(
  deps: AuthDeps,
  email: string,
  meta: RequestMeta,
): Promise<TEmailStatusResponse> {
  await consumeAttempt(
    deps.db,
    [THROTTLE.emailStatusPerIp(meta.ip, deps.signupLimitPerHour)],
    "address checks from this network",
  );
  const normalized = normalizeEmail(email);
  return { email: normalized, available: (await findUserByEmail(deps.db, normalized)) === null };
}

import { findUserByEmail } from "../users/find-user";
import type { AuthDeps, RequestMeta } from "./auth-deps";
import { passwordResetEmail } from "./compose-emails";
import { createEmailToken } from "./email-tokens";
import { consumeAttempt, THROTTLE } from "./throttle";

/**
 * Sends a reset link when the address has an account, and nothing otherwise; the caller
 * answers the same either way. The budget counts every request for the address, existing or
 * not, so hitting it reveals nothing either.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  email: string,
  meta: RequestMeta,
): Promise<void> {
  await consumeAttempt(
    deps.db,
    [THROTTLE.resetPerAddress(email), THROTTLE.resetPerIp(meta.ip)],
    "password reset requests",
  );
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  const token = await createEmailToken(deps.db, "reset_password", {
    userId: user.id,
    email: user.email,
  });
  deps.mailer.sendLater(passwordResetEmail(deps.publicUrl, user, token));
}

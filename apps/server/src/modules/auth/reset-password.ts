import type { AuthDeps } from "./auth-deps";
import { checkPasswordPolicy } from "./check-password-policy";
import { confirmEmail } from "./confirm-email";
import { checkEmailToken, consumeEmailToken, voidEmailTokens } from "./email-tokens";
import { hashPassword } from "./hash-password";
import { revokeAllSignIns } from "./revoke-sign-ins";
import { setPasswordHash } from "./set-password";

/**
 * Sets a new password from a reset link and signs the account out everywhere: whoever knew
 * the old password loses access. Returns the revoked sign-ins' ids so their sockets can be
 * dropped. The link also proves the mailbox, so the address counts as verified.
 */
export async function resetPassword(
  deps: AuthDeps,
  token: string,
  password: string,
): Promise<{ revokedSignInIds: string[] }> {
  // Checked before the token is used up, so a refused password does not burn the link.
  const owner = await checkEmailToken(deps.db, "reset_password", token);
  checkPasswordPolicy(password, owner.email);
  const passwordHash = await hashPassword(password);
  const { revokedSignInIds, confirmed } = await deps.db.transaction(async (tx) => {
    const { userId, email } = await consumeEmailToken(tx, "reset_password", token);
    await setPasswordHash(tx, userId, passwordHash);
    await voidEmailTokens(tx, "reset_password", userId);
    const confirmed = await confirmEmail(tx, userId, email, deps.signupCredits);
    return { revokedSignInIds: await revokeAllSignIns(tx, userId), confirmed };
  });
  if (confirmed.credits) deps.publishCredits([confirmed.credits]);
  return { revokedSignInIds };
}

import { AUTH_ERROR_CODES, type TUserProfile } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { AuthDeps } from "./auth-deps";
import { verificationEmail } from "./compose-emails";
import { confirmEmail } from "./confirm-email";
import { consumeEmailToken, createEmailToken } from "./email-tokens";
import { consumeAttempt, THROTTLE } from "./throttle";

/**
 * Confirms the address the link was sent to, if it is still the account's address; the
 * first confirmation brings the welcome credits.
 */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<void> {
  const confirmed = await deps.db.transaction(async (tx) => {
    const owner = await consumeEmailToken(tx, "verify_email", token);
    const result = await confirmEmail(tx, owner.userId, owner.email, deps.signupCredits);
    if (!result.verified) {
      throw new AppError(
        AUTH_ERROR_CODES.invalidToken,
        400,
        "This verification link is for an address that is no longer on the account.",
      );
    }
    return result;
  });
  if (confirmed.credits) deps.publishCredits([confirmed.credits]);
}

/** Sends a fresh verification link to the signed-in user (a few per hour at most). */
export async function resendVerification(deps: AuthDeps, user: TUserProfile): Promise<void> {
  if (user.emailVerified) {
    throw new AppError(
      AUTH_ERROR_CODES.emailAlreadyVerified,
      409,
      "Your email address is already verified.",
    );
  }
  await consumeAttempt(deps.db, [THROTTLE.verifyResendPerUser(user.id)], "verification emails");
  const token = await createEmailToken(deps.db, "verify_email", {
    userId: user.id,
    email: user.email,
  });
  deps.mailer.sendLater(verificationEmail(deps.publicUrl, user, token));
}

import { ADMIN_USER_MESSAGES, AUTH_ERROR_CODES, type TUserProfile } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { AuthDeps } from "../auth/auth-deps";
import { passwordResetEmail, verificationEmail } from "../auth/compose-emails";
import { createEmailToken } from "../auth/email-tokens";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

/**
 * Support's emails for an account (decision 056): a new verification link, or a password
 * reset link, exactly as the user would get them from the login screen, with an audit
 * entry. The link's token and the entry commit together; the email leaves after the commit.
 * No per-address throttle: an administrator is not an anonymous caller guessing addresses.
 */
export async function sendAccountEmail(
  deps: AuthDeps,
  actor: AdminActor,
  user: TUserProfile,
  kind: "verification" | "password_reset",
): Promise<string> {
  if (kind === "verification" && user.emailVerified) {
    throw new AppError(
      AUTH_ERROR_CODES.emailAlreadyVerified,
      409,
      ADMIN_USER_MESSAGES.alreadyVerified,
    );
  }
  const purpose = kind === "verification" ? "verify_email" : "reset_password";
  const token = await deps.db.transaction(async (tx) => {
    const created = await createEmailToken(tx, purpose, { userId: user.id, email: user.email });
    await recordAdminAction(tx, actor, {
      action: kind === "verification" ? "user.verification_sent" : "user.password_reset_sent",
      targetType: "user",
      targetId: user.id,
      before: null,
      after: { to: user.email },
    });
    return created;
  });
  deps.mailer.sendLater(
    kind === "verification"
      ? verificationEmail(deps.publicUrl, user, token)
      : passwordResetEmail(deps.publicUrl, user, token),
  );
  return kind === "verification"
    ? ADMIN_USER_MESSAGES.verificationSent(user.email)
    : ADMIN_USER_MESSAGES.resetSent(user.email);
}

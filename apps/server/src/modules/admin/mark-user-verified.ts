import { ADMIN_USER_MESSAGES, AUTH_ERROR_CODES, type TUserProfile } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import type { AuthDeps } from "../auth/auth-deps";
import { confirmEmail } from "../auth/confirm-email";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

/**
 * Support vouches for the address (the user showed it some other way): the same as the user
 * opening their link, welcome credits included, with the audit entry in the same transaction.
 */
export async function markUserVerified(
  deps: AuthDeps,
  actor: AdminActor,
  user: TUserProfile,
  reason: string,
): Promise<string> {
  if (user.emailVerified) {
    throw new AppError(
      AUTH_ERROR_CODES.emailAlreadyVerified,
      409,
      ADMIN_USER_MESSAGES.alreadyVerified,
    );
  }
  const confirmed = await deps.db.transaction(async (tx) => {
    const result = await confirmEmail(tx, user.id, user.email, deps.signupCredits);
    await recordAdminAction(tx, actor, {
      action: "user.email_verified",
      targetType: "user",
      targetId: user.id,
      before: { email: user.email, verified: false },
      after: { email: user.email, verified: true },
      reason,
    });
    return result;
  });
  if (confirmed.credits) deps.publishCredits([confirmed.credits]);
  return ADMIN_USER_MESSAGES.markedVerified(user.email);
}

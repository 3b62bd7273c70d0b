import type { TSignupRequest, TUserProfile } from "@cohort/contracts";
import { acceptAgreement } from "../agreements/accept-agreement";
import { createUser } from "../users/create-user";
import type { AuthDeps, RequestMeta } from "./auth-deps";
import { checkPasswordPolicy } from "./check-password-policy";
import { verificationEmail } from "./compose-emails";
import { createEmailToken } from "./email-tokens";
import { hashPassword } from "./hash-password";
import { issueSignIn } from "./issue-sign-in";
import { setPasswordHash } from "./set-password";
import { consumeAttempt, THROTTLE } from "./throttle";

export interface SignedIn {
  user: TUserProfile;
  token: string;
  signInId: string;
}

/**
 * Creates the account (a few per IP address per hour; the welcome credits come when the
 * address is verified), records the agreement the user accepted in the sign-up modal, signs
 * them in and sends the verification link — all or nothing, except the mail, which goes out
 * after the commit so a rollback never leaves a link to an account that does not exist.
 */
export async function signUp(
  deps: AuthDeps,
  input: TSignupRequest,
  meta: RequestMeta,
): Promise<SignedIn> {
  checkPasswordPolicy(input.password, input.email);
  await consumeAttempt(
    deps.db,
    [THROTTLE.signupPerIp(meta.ip, deps.signupLimitPerHour)],
    "accounts created from this network",
  );
  const passwordHash = await hashPassword(input.password);
  const { user, issued, verifyToken } = await deps.db.transaction(async (tx) => {
    const user = await createUser(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
    });
    await setPasswordHash(tx, user.id, passwordHash);
    if (input.agreementId) {
      await acceptAgreement(tx, {
        userId: user.id,
        agreementId: input.agreementId,
        source: "web",
        ip: meta.ip,
        currentOnly: false,
      });
    }
    const issued = await issueSignIn(tx, user.id, deps.signIns, meta);
    const verifyToken = await createEmailToken(tx, "verify_email", {
      userId: user.id,
      email: user.email,
    });
    return { user, issued, verifyToken };
  });
  deps.mailer.sendLater(verificationEmail(deps.publicUrl, user, verifyToken));
  return { user, ...issued };
}

import type { TSignupRequest, TUserProfile } from "@cohort/contracts";
import { acceptAgreement } from "../agreements/accept-agreement";
import { grantSignupCredits } from "../credits/grant-credits";
import { createUser } from "../users/create-user";
import { findUserById } from "../users/find-user";
import type { AuthDeps, RequestMeta } from "./auth-deps";
import { checkPasswordPolicy } from "./check-password-policy";
import { verificationEmail } from "./compose-emails";
import { createEmailToken } from "./email-tokens";
import { hashPassword } from "./hash-password";
import { issueSession } from "./issue-session";
import { setPasswordHash } from "./set-password";

export interface SignedIn {
  user: TUserProfile;
  token: string;
  sessionId: string;
}

/**
 * Creates the account, records the agreement the user accepted in the sign-up modal, signs
 * them in and sends the verification link — all or nothing, except the mail, which goes out
 * after the commit so a rollback never leaves a link to an account that does not exist.
 */
export async function signUp(
  deps: AuthDeps,
  input: TSignupRequest,
  meta: RequestMeta,
): Promise<SignedIn> {
  checkPasswordPolicy(input.password, input.email);
  const passwordHash = await hashPassword(input.password);
  const { user, session, verifyToken } = await deps.db.transaction(async (tx) => {
    const created = await createUser(tx, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
    });
    const user = (await grantSignupCredits(tx, created.id, deps.signupCredits))
      ? ((await findUserById(tx, created.id)) ?? created)
      : created;
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
    const session = await issueSession(tx, user.id, deps.sessions, meta);
    const verifyToken = await createEmailToken(tx, "verify_email", {
      userId: user.id,
      email: user.email,
    });
    return { user, session, verifyToken };
  });
  deps.mailer.sendLater(verificationEmail(deps.publicUrl, user, verifyToken));
  return { user, token: session.token, sessionId: session.sessionId };
}

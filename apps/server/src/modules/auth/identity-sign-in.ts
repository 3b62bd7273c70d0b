import type { FastifyInstance } from "fastify";
import { issueSignIn } from "./issue-sign-in";
import type { requestMeta } from "./reply-signed-in";
import { signInWithIdentity, type VerifiedIdentity } from "./sign-in-with-identity";

/**
 * Signs in the account behind a verified provider identity (Google's OIDC redirect or the
 * Firebase popup), finding, linking or creating it and issuing the sign-in in one transaction.
 */
export function identitySignIn(app: FastifyInstance) {
  const { config } = app;
  const settings = { idleDays: config.signInIdleDays, maxDays: config.signInMaxDays };
  return (identity: VerifiedIdentity, meta: ReturnType<typeof requestMeta>) =>
    app.db.transaction(async (tx) => {
      const user = await signInWithIdentity(tx, identity, {
        signupCredits: config.billing.signupCredits,
      });
      return { user, ...(await issueSignIn(tx, user.id, settings, meta)) };
    });
}

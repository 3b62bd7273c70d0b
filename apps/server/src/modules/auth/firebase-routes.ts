import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  IDENTITY_ERROR_CODES,
  ZAuthResponse,
  ZGoogleRegisterRequest,
  ZIdentityListResponse,
  ZLinkIdentityRequest,
  ZLogoutResponse,
  ZSignInProvider,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { recordIdentityProviderUid } from "../users/record-identity-provider-uid";
import { identitySignIn } from "./identity-sign-in";
import { linkIdentity } from "./link-identity";
import { listIdentities } from "./list-identities";
import { replySignedIn, requestMeta } from "./reply-signed-in";
import { unlinkIdentity } from "./unlink-identity";
import {
  createFirebaseVerifier,
  type FirebaseClaims,
  providerIdentity,
} from "./verify-firebase-token";

const tags = ["auth"];

/**
 * Sign-in through the identity provider (the API: Firebase popup, then POST /auth/register)
 * and the provider accounts a signed-in user links and unlinks in Settings.
 */
export async function firebaseRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const verify = config.firebase ? createFirebaseVerifier(config.firebase) : null;
  const signIn = identitySignIn(app);

  /** The verified claims of a Firebase ID token and the provider account they stand for. */
  async function verifiedAccount(request: FastifyRequest, idToken: string) {
    if (!verify) {
      // A request this server can never grant, not an outage: a 4xx with the spec's text.
      throw new AppError(
        IDENTITY_ERROR_CODES.notConfigured,
        400,
        AUTH_MESSAGES.googleNotConfigured,
      );
    }
    let claims: FirebaseClaims;
    try {
      claims = await verify(idToken);
    } catch (error) {
      request.log.warn({ err: error }, "Firebase ID token refused");
      throw invalidIdToken();
    }
    const account = providerIdentity(claims);
    if (!account || !config.firebase?.providers.includes(account.provider)) {
      throw new AppError(
        IDENTITY_ERROR_CODES.unsupportedProvider,
        400,
        "This way of signing in is not offered here. Choose one of the buttons on the sign-in page.",
      );
    }
    return { claims, account };
  }

  r.post(
    "/api/auth/register",
    {
      schema: {
        tags,
        summary:
          "Sign in with the identity provider (the data model Google sync payload); `idToken` is the Firebase ID token and must match uid and email",
        body: ZGoogleRegisterRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { claims, account } = await verifiedAccount(request, body.idToken);
      const tokenEmail = claims.email?.toLowerCase();
      if (claims.sub !== body.uid || (tokenEmail ?? "") !== (body.email ?? "")) {
        throw invalidIdToken();
      }
      const signedIn = await signIn(
        {
          ...account,
          email: tokenEmail,
          emailVerified: claims.email_verified === true,
          displayName: body.displayName ?? claims.name,
          photoUrl: httpUrl(body.photoURL) ?? httpUrl(claims.picture),
        },
        requestMeta(request),
      );
      const user = await recordIdentityProviderUid(app.db, signedIn.user.id, claims.sub);
      return replySignedIn(app, reply, { ...signedIn, user });
    },
  );

  r.get(
    "/api/auth/identities",
    {
      schema: {
        tags,
        summary:
          "The provider accounts linked to the signed-in user, and whether a password is set",
        response: { 200: ZIdentityListResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return listIdentities(app.db, user.id);
    },
  );

  r.post(
    "/api/auth/identities",
    {
      schema: {
        tags,
        summary:
          "Link the provider account behind a fresh Firebase ID token to the signed-in user (409 if linked elsewhere)",
        body: ZLinkIdentityRequest,
        response: { 200: ZIdentityListResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { claims, account } = await verifiedAccount(request, request.body.idToken);
      // The popup just proved the user holds the provider account; its email need not match.
      await linkIdentity(app.db, user.id, { ...account, email: claims.email?.toLowerCase() });
      await recordIdentityProviderUid(app.db, user.id, claims.sub);
      return listIdentities(app.db, user.id);
    },
  );

  r.delete(
    "/api/auth/identities/:provider",
    {
      schema: {
        tags,
        summary:
          "Unlink a provider from the signed-in user; refused (409) when it is the last way to sign in",
        params: z.object({ provider: ZSignInProvider }),
        response: { 200: ZLogoutResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await unlinkIdentity(app.db, user.id, request.params.provider);
      return { success: true as const };
    },
  );
}

function httpUrl(value: string | null | undefined): string | undefined {
  return value && /^https?:\/\//i.test(value) ? value : undefined;
}

function invalidIdToken(): AppError {
  return new AppError(
    AUTH_ERROR_CODES.invalidIdToken,
    401,
    "Your sign-in could not be verified. Please sign in again.",
  );
}

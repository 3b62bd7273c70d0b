import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  ERROR_CODES,
  ZAuthResponse,
  ZGoogleRegisterRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors";
import { createGoogleOidc, type PendingLogin } from "./google-oidc";
import { issueSignIn } from "./issue-sign-in";
import { replySignedIn, requestMeta, signInBrowser } from "./reply-signed-in";
import { signInWithIdentity, type VerifiedIdentity } from "./sign-in-with-identity";
import { createFirebaseVerifier, type FirebaseClaims } from "./verify-firebase-token";

const tags = ["auth"];
const OAUTH_COOKIE = "cohort_oauth";
const OAUTH_COOKIE_PATH = "/api/auth/google";
const OAUTH_COOKIE_MAX_AGE_S = 600;
const SUCCESS_REDIRECT = "/dashboard";
const FAILURE_REDIRECT = "/login?error=google";

const ZPendingLogin = z.object({ state: z.string(), nonce: z.string(), verifier: z.string() });

/**
 * Google sign-in, both ways: the server-side OIDC code flow (GOOGLE_CLIENT_ID/SECRET), and
 * the Firebase popup flow whose ID token the web app posts to /api/auth/register.
 */
export async function googleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const signIns = { idleDays: config.signInIdleDays, maxDays: config.signInMaxDays };
  const oidc = config.google
    ? createGoogleOidc({
        ...config.google,
        redirectUri: `${config.publicUrl}/api/auth/google/callback`,
      })
    : null;
  const verifyFirebaseToken = config.firebase ? createFirebaseVerifier(config.firebase) : null;

  const signIn = (identity: VerifiedIdentity, meta: ReturnType<typeof requestMeta>) =>
    app.db.transaction(async (tx) => {
      const user = await signInWithIdentity(tx, identity, {
        signupCredits: config.billing.signupCredits,
      });
      return { user, ...(await issueSignIn(tx, user.id, signIns, meta)) };
    });

  r.get(
    "/api/auth/google",
    { schema: { tags, summary: "Start Google sign-in (redirects to Google)", hide: !oidc } },
    async (request, reply) => {
      if (!oidc) return reply.redirect(FAILURE_REDIRECT, 302);
      try {
        const { url, pending } = await oidc.begin();
        reply.setCookie(OAUTH_COOKIE, JSON.stringify(pending), {
          path: OAUTH_COOKIE_PATH,
          httpOnly: true,
          sameSite: "lax",
          secure: config.secureCookies,
          signed: true,
          maxAge: OAUTH_COOKIE_MAX_AGE_S,
        });
        reply.header("cache-control", "no-store");
        return reply.redirect(url, 302);
      } catch (error) {
        request.log.error({ err: error }, "Google sign-in could not start");
        return reply.redirect(FAILURE_REDIRECT, 302);
      }
    },
  );

  r.get(
    "/api/auth/google/callback",
    {
      schema: {
        tags,
        summary: "Google redirects back here; signs in and goes to /dashboard",
        hide: !oidc,
      },
    },
    async (request, reply) => {
      reply.clearCookie(OAUTH_COOKIE, { path: OAUTH_COOKIE_PATH });
      reply.header("cache-control", "no-store");
      if (!oidc) return reply.redirect(FAILURE_REDIRECT, 302);
      try {
        const raw = request.cookies[OAUTH_COOKIE];
        const unsigned = raw ? request.unsignCookie(raw) : null;
        if (!unsigned?.valid || !unsigned.value)
          throw new Error("missing or tampered login cookie");
        const pending: PendingLogin = ZPendingLogin.parse(JSON.parse(unsigned.value));
        const claims = await oidc.finish(new URL(request.url, config.publicUrl), pending);
        const signedIn = await signIn(
          {
            provider: "google",
            subject: claims.sub,
            email: claims.email,
            emailVerified: claims.emailVerified,
            firstName: claims.givenName,
            lastName: claims.familyName,
            displayName: claims.name,
            photoUrl: claims.picture,
          },
          requestMeta(request),
        );
        signInBrowser(app, reply, signedIn);
        return reply.redirect(SUCCESS_REDIRECT, 302);
      } catch (error) {
        // The user lands on the login page with a message; the reason stays in the log.
        request.log.warn({ err: error }, "Google sign-in failed");
        return reply.redirect(FAILURE_REDIRECT, 302);
      }
    },
  );

  r.post(
    "/api/auth/register",
    {
      schema: {
        tags,
        summary:
          "Sign in with the identity provider (spec §3 Google sync payload); `idToken` is the Firebase ID token and must match uid and email",
        body: ZGoogleRegisterRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      if (!verifyFirebaseToken) {
        throw new AppError(ERROR_CODES.unavailable, 503, AUTH_MESSAGES.googleNotConfigured);
      }
      const body = request.body;
      let claims: FirebaseClaims;
      try {
        claims = await verifyFirebaseToken(body.idToken);
      } catch (error) {
        request.log.warn({ err: error }, "Firebase ID token refused");
        throw invalidIdToken();
      }
      if (claims.sub !== body.uid || (claims.email ?? "").toLowerCase() !== body.email) {
        throw invalidIdToken();
      }
      const signedIn = await signIn(
        {
          provider: "firebase",
          subject: claims.sub,
          email: body.email,
          emailVerified: claims.email_verified === true,
          displayName: body.displayName ?? claims.name,
          photoUrl: httpUrl(body.photoURL) ?? httpUrl(claims.picture),
        },
        requestMeta(request),
      );
      return replySignedIn(app, reply, signedIn);
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
    "Google sign-in could not be verified. Please sign in with Google again.",
  );
}

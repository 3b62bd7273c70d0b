import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createGoogleOidc, type PendingLogin } from "./google-oidc";
import { identitySignIn } from "./identity-sign-in";
import { requestMeta, signInBrowser } from "./reply-signed-in";

const tags = ["auth"];
const OAUTH_COOKIE = "cohort_oauth";
const OAUTH_COOKIE_PATH = "/api/auth/google";
const OAUTH_COOKIE_MAX_AGE_S = 600;
const SUCCESS_REDIRECT = "/dashboard";
const FAILURE_REDIRECT = "/login?error=google";

const ZPendingLogin = z.object({ state: z.string(), nonce: z.string(), verifier: z.string() });

/**
 * Google sign-in through the server-side OIDC code flow (GOOGLE_CLIENT_ID/SECRET); the
 * identity provider's popup flow is in firebase-routes.ts (decision 024).
 */
export async function googleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const oidc = config.google
    ? createGoogleOidc({
        ...config.google,
        redirectUri: `${config.publicUrl}/api/auth/google/callback`,
      })
    : null;
  const signIn = identitySignIn(app);

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
}

import {
  AUTH_MESSAGES,
  ERROR_CODES,
  type TAuthProviders,
  ZAuthProviders,
  ZAuthResponse,
  ZEmailStatusRequest,
  ZEmailStatusResponse,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZLogoutResponse,
  ZResetPasswordRequest,
  ZSignInListResponse,
  ZSignupRequest,
  ZSuccessResponse,
  ZVerifyEmailRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { setCsrfSecretCookie } from "../../platform/csrf";
import { AppError } from "../../platform/errors";
import { authDeps } from "./auth-deps";
import { registerSocketAuth, watchSocketSignIns } from "./authenticate-socket";
import { checkEmailStatus } from "./check-email-status";
import { dropSignInSockets } from "./drop-sign-in-sockets";
import { firebaseRoutes } from "./firebase-routes";
import { googleRoutes } from "./google-routes";
import { listSignIns } from "./list-sign-ins";
import { logIn } from "./log-in";
import { loginMeta, replySignedIn, requestMeta } from "./reply-signed-in";
import { requestPasswordReset } from "./request-password-reset";
import { resetPassword } from "./reset-password";
import { revokeSignIn } from "./revoke-sign-ins";
import { clearSignInCookie } from "./sign-in-cookie";
import { signUp } from "./sign-up";
import { resendVerification, verifyEmail } from "./verify-email";
import { prepareDummyHash } from "./verify-password";

const tags = ["auth"];

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);
  registerSocketAuth(app);
  watchSocketSignIns(app);
  await prepareDummyHash();

  r.post(
    "/api/user-auth/signup",
    {
      schema: {
        tags,
        summary: "Create an account and sign in; sends the email verification link",
        body: ZSignupRequest,
        response: { 201: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await signUp(deps, request.body, requestMeta(request));
      return reply.status(201).send(replySignedIn(app, reply, signedIn));
    },
  );

  r.post(
    "/api/user-auth/email-status",
    {
      schema: {
        tags,
        summary:
          "Whether an address is free for a new account (asked before the agreement modal); counted per IP like sign-up",
        body: ZEmailStatusRequest,
        response: { 200: ZEmailStatusResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return checkEmailStatus(deps, request.body.email, requestMeta(request));
    },
  );

  r.post(
    "/api/user-auth/login",
    {
      schema: {
        tags,
        summary: "Sign in with email and password (the data model login response)",
        body: ZLoginRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await logIn(deps, request.body, loginMeta(app, request, request.body.email));
      return replySignedIn(app, reply, signedIn);
    },
  );

  r.post(
    "/api/user-auth/forgot-password",
    {
      schema: {
        tags,
        summary: "Email a password reset link; the same answer whether or not the account exists",
        body: ZForgotPasswordRequest,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      await requestPasswordReset(deps, request.body.email, requestMeta(request));
      return { success: true as const, message: AUTH_MESSAGES.forgotPassword };
    },
  );

  r.post(
    "/api/user-auth/reset-password",
    {
      schema: {
        tags,
        summary: "Set a new password from a reset link; signs the account out everywhere",
        body: ZResetPasswordRequest,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { revokedSignInIds } = await resetPassword(
        deps,
        request.body.token,
        request.body.password,
      );
      dropSignInSockets(app.realtime, revokedSignInIds);
      return {
        success: true as const,
        message: "Your password has been reset. Please sign in with your new password.",
      };
    },
  );

  r.post(
    "/api/user-auth/verify-email",
    {
      schema: {
        tags,
        summary: "Confirm an email address from a verification link",
        body: ZVerifyEmailRequest,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      await verifyEmail(deps, request.body.token);
      return { success: true as const, message: "Thank you. Your email address is verified." };
    },
  );

  r.post(
    "/api/user-auth/resend-verification",
    {
      schema: {
        tags,
        summary: "Send the signed-in user a new email verification link",
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await resendVerification(deps, user);
      return {
        success: true as const,
        message: `We have sent a new verification link to ${user.email}.`,
      };
    },
  );

  r.post(
    "/api/auth/logout",
    {
      schema: {
        tags,
        summary: "Sign out: revokes this sign-in, clears the cookie, rotates the CSRF secret",
        response: { 200: ZLogoutResponse },
      },
    },
    async (request, reply) => {
      const principal = await currentPrincipal(request);
      if (principal) {
        await revokeSignIn(app.db, principal.user.id, principal.signInId);
        dropSignInSockets(app.realtime, [principal.signInId]);
      }
      clearSignInCookie(reply, app.config.secureCookies);
      setCsrfSecretCookie(reply, app.config.secureCookies);
      return { success: true as const };
    },
  );

  r.get(
    "/api/auth/sign-ins",
    {
      schema: {
        tags,
        summary: "Where the user is signed in: their active sign-ins",
        response: { 200: ZSignInListResponse },
      },
    },
    async (request, reply) => {
      const { user, signInId } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { sign_ins: await listSignIns(app.db, user.id, signInId) };
    },
  );

  r.delete(
    "/api/auth/sign-ins/:id",
    {
      schema: {
        tags,
        summary: "Sign out one of the user's sign-ins and disconnect its sockets",
        params: z.object({ id: z.string().max(64) }),
        response: { 200: ZLogoutResponse },
      },
    },
    async (request, reply) => {
      const { user, signInId } = await requireUser(request);
      if (!(await revokeSignIn(app.db, user.id, request.params.id))) {
        throw new AppError(ERROR_CODES.notFound, 404, "Sign-in not found.");
      }
      dropSignInSockets(app.realtime, [request.params.id]);
      if (request.params.id === signInId) clearSignInCookie(reply, app.config.secureCookies);
      return { success: true as const };
    },
  );

  r.get(
    "/api/auth/providers",
    {
      schema: {
        tags,
        summary:
          "Which Google sign-in the server supports, the identity provider's web config, and the welcome credits",
        response: { 200: ZAuthProviders },
      },
    },
    async () => {
      const { google, firebase } = app.config;
      const firebaseWeb = firebase?.apiKey
        ? {
            apiKey: firebase.apiKey,
            authDomain: firebase.authDomain,
            projectId: firebase.projectId,
            storageBucket: firebase.storageBucket ?? null,
            messagingSenderId: firebase.messagingSenderId ?? null,
            appId: firebase.appId ?? null,
            providers: [...firebase.providers],
            emulatorUrl: firebase.emulatorHost ? `http://${firebase.emulatorHost}` : null,
          }
        : null;
      // With both configured, Google goes through the popup (the API, decision 024).
      const googleMode: TAuthProviders["googleMode"] = firebaseWeb?.providers.includes("google")
        ? "firebase"
        : google
          ? "oidc"
          : null;
      return {
        google: googleMode !== null,
        googleMode,
        firebase: firebaseWeb,
        welcomeCredits: app.config.billing.signupCredits,
      };
    },
  );

  await app.register(googleRoutes);
  await app.register(firebaseRoutes);
}

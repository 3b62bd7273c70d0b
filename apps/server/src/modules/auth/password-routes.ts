import {
  AUTH_MESSAGES,
  ZForgotPasswordRequest,
  ZResetPasswordRequest,
  ZSuccessResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { authDeps } from "./auth-deps";
import { dropSignInSockets } from "./drop-sign-in-sockets";
import { requestMeta } from "./reply-signed-in";
import { requestPasswordReset } from "./request-password-reset";
import { resetPassword } from "./reset-password";

const tags = ["auth"];

/** A forgotten password: the reset link by email, and the new password from it. */
export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);

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
}

import { ZSuccessResponse, ZVerifyEmailRequest } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { authDeps } from "./auth-deps";
import { resendVerification, verifyEmail } from "./verify-email";

const tags = ["auth"];

/** Email verification: confirming from the link, and sending the signed-in user a new one. */
export async function verificationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);

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
}

import { ERROR_CODES, ZLogoutResponse, ZSignInListResponse } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { setCsrfSecretCookie } from "../../platform/csrf";
import { AppError } from "../../platform/errors";
import { dropSignInSockets } from "./drop-sign-in-sockets";
import { listSignIns } from "./list-sign-ins";
import { revokeSignIn } from "./revoke-sign-ins";
import { clearSignInCookie } from "./sign-in-cookie";

const tags = ["auth"];

/** The user's sign-ins: signing out this one, listing them all, and signing out one of them. */
export async function signInRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
}

import {
  ACCESS_TOKEN_MESSAGES,
  ERROR_CODES,
  ZAccessTokenParams,
  ZAccessTokensResponse,
  ZCreateAccessTokenRequest,
  ZCreatedAccessTokenResponse,
  ZSuccessResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { createAccessToken } from "./create-access-token";
import { listAccessTokens } from "./list-access-tokens";
import { revokeAccessToken } from "./revoke-access-token";

const tags = ["users"];

/**
 * Personal access tokens in Settings: GET/POST /api/users/access-tokens, DELETE …/:id. These
 * are cookie routes (signed-in user, CSRF); the tokens themselves are accepted only by the
 * public API (`authenticateAccessToken`), never here.
 */
export async function accessTokenRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/users/access-tokens",
    {
      schema: {
        tags,
        summary:
          "The user's access tokens for the public API: name, last four, scopes, expiry, last use",
        response: { 200: ZAccessTokensResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { tokens: await listAccessTokens(app.db, user.id) };
    },
  );

  r.post(
    "/api/users/access-tokens",
    {
      schema: {
        tags,
        summary: "Create an access token; the token is in this answer only, never again",
        body: ZCreateAccessTokenRequest,
        response: { 201: ZCreatedAccessTokenResponse },
      },
    },
    async (request, reply) => {
      // A token spends credits through the API: only for users who accepted the agreement.
      const { user } = await requireAgreement(request);
      const created = await createAccessToken(app.db, user.id, request.body);
      request.log.info(
        { userId: user.id, tokenId: created.info.id, scopes: created.info.scopes },
        "access token created",
      );
      reply.header("cache-control", "no-store");
      return reply.code(201).send(created);
    },
  );

  r.delete(
    "/api/users/access-tokens/:id",
    {
      schema: {
        tags,
        summary: "Revoke an access token: the next request with it is refused",
        params: ZAccessTokenParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const revoked = await revokeAccessToken(app.db, user.id, request.params.id);
      if (!revoked) {
        throw new AppError(ERROR_CODES.notFound, 404, ACCESS_TOKEN_MESSAGES.notFound);
      }
      request.log.info({ userId: user.id, tokenId: revoked.id }, "access token revoked");
      return { success: true as const, message: ACCESS_TOKEN_MESSAGES.revoked };
    },
  );
}

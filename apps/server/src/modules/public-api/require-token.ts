import type { TAccessTokenScope } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { authenticateAccessToken } from "../access-tokens/authenticate-access-token";

/**
 * The token's owner, or the refusal as an AppError (401, 403, or 429 with Retry-After) for
 * the /api/v1 error handler to put in OpenAI's shape. `null` accepts any scope.
 */
export async function requireToken(
  request: FastifyRequest,
  scope: TAccessTokenScope | null,
): Promise<Principal> {
  const auth = await authenticateAccessToken(request.server, request, scope);
  if (auth.ok) return auth.principal;
  const headers =
    auth.retryAfterSeconds === undefined
      ? undefined
      : { "retry-after": String(auth.retryAfterSeconds) };
  throw new AppError(auth.code, auth.status, auth.message, undefined, headers);
}

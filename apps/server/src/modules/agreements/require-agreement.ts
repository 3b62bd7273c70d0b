import { AGREEMENT_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { type Principal, requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";

/**
 * The guard for product calls (sessions, ai, cochat, billing mutations): 401 when signed out,
 * 403 `agreement_required` while the user has not accepted the current agreement version.
 * Use it as a preHandler (`{ preHandler: requireAgreement }`) or await it in a handler.
 * Once a user has decided on the current version this costs no statement (agreement-checks).
 */
export async function requireAgreement(request: FastifyRequest): Promise<Principal> {
  const checks = request.server.agreementChecks;
  const [principal, agreement] = await Promise.all([requireUser(request), checks.currentVersion()]);
  if (agreement && !(await checks.hasDecided(principal.user.id, agreement))) {
    throw new AppError(ERROR_CODES.agreementRequired, 403, AGREEMENT_MESSAGES.required, {
      agreementId: agreement.id,
      version: agreement.version,
    });
  }
  return principal;
}

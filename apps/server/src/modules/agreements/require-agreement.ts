import { AGREEMENT_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { type Principal, requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { getAgreementStatus } from "./get-agreement-status";

/**
 * The guard for product calls (sessions, ai, cochat, billing mutations): 401 when signed out,
 * 403 `agreement_required` while the user has not accepted the current agreement version.
 * Use it as a preHandler (`{ preHandler: requireAgreement }`) or await it in a handler.
 */
export async function requireAgreement(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  const status = await getAgreementStatus(request.server.db, principal.user.id);
  if (status.requiresAcceptance) {
    throw new AppError(ERROR_CODES.agreementRequired, 403, AGREEMENT_MESSAGES.required, {
      agreementId: status.agreement?.id,
      version: status.agreement?.version,
    });
  }
  return principal;
}

import { hasTemplateAccess, TEMPLATE_ERROR_CODES, TEMPLATE_MESSAGES } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";

/**
 * Saving, changing and starting from templates is Pro+ and Enterprise ("Workspace saving" on
 * the pricing page), by the caller's own plan: other plans get 403 `templates_locked` with
 * where to upgrade. Reading and deleting stay open, so a user whose plan lapsed still sees
 * and can clear what they saved, and a team's viewers see what the team shares.
 */
export async function requireTemplatePlan(request: FastifyRequest): Promise<Principal> {
  const principal = await requireAgreement(request);
  const tier = principal.user.subscription_tier;
  if (!hasTemplateAccess(tier)) {
    throw new AppError(TEMPLATE_ERROR_CODES.locked, 403, TEMPLATE_MESSAGES.locked, {
      tier,
      upgrade_url: "/billing",
    });
  }
  return principal;
}

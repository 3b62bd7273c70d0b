import { BILLING_ERROR_CODES } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors";

/**
 * The dev checkout's form posts cannot carry the CSRF header, so they are held to the same
 * origin instead: the browser's Origin (or, failing that, Referer) must be this server as the
 * browser addressed it, or PUBLIC_URL. With the SameSite=Lax session cookie and the
 * unguessable, user-bound checkout id, a forged cross-site post has nothing to ride on.
 */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  const given = request.headers.origin ?? request.headers.referer;
  let origin: string | null = null;
  try {
    origin = given && given !== "null" ? new URL(given).origin : null;
  } catch {
    origin = null;
  }
  const allowed = [new URL(publicUrl).origin, `${request.protocol}://${request.host}`];
  if (!origin || !allowed.includes(origin)) {
    throw new AppError(
      BILLING_ERROR_CODES.crossOrigin,
      403,
      "This form can only be sent from Cohort's own pages.",
    );
  }
}

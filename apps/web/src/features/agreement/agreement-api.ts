import type {
  TAcceptAgreementResponse,
  TAgreement,
  TAgreementResponse,
  TAgreementStatus,
  TDeclineAgreementResponse,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";
import { isApiError } from "../../lib/api/api-error";
import { prefetchedOr, prefetchOnce } from "../../lib/api/boot-prefetch";
import { logger } from "../../lib/telemetry/logger";

/**
 * The agreement shown at sign-up, or null when none is published (404). The error texts: fetch
 * errors are only logged, and sign-up then goes ahead without the modal.
 */
export async function fetchCurrentAgreement(): Promise<TAgreement | null> {
  try {
    const { agreement } = await api.get<TAgreementResponse>("/agreements/current");
    return agreement;
  } catch (error) {
    if (!(isApiError(error) && error.status === 404)) {
      logger.warn("Could not fetch the current agreement", {
        code: isApiError(error) ? error.code : undefined,
      });
    }
    return null;
  }
}

const NOT_REQUIRED: TAgreementStatus = {
  requiresAcceptance: false,
  agreement: null,
  lastAcceptedAt: null,
};

const AGREEMENT_PREFETCH_KEY = "agreement-status";

/**
 * Asks whether the agreement must be accepted while the page boots, side by side with the
 * sign-in check (decision 080). Only an answer for the signed-in user counts: a 401 or 403
 * here is no verdict, so the gate then asks again itself.
 */
export function prefetchAgreementStatus(): Promise<TAgreementStatus> {
  return prefetchOnce(AGREEMENT_PREFETCH_KEY, () =>
    api.get<TAgreementStatus>("/agreements/check-required", { redirectOnUnauthorized: false }),
  );
}

/** The error texts: a 401 or 403 answer means "not required"; other failures are logged only. */
export async function checkAgreementRequired(signal?: AbortSignal): Promise<TAgreementStatus> {
  try {
    return await prefetchedOr(AGREEMENT_PREFETCH_KEY, () =>
      api.get<TAgreementStatus>("/agreements/check-required", { signal }),
    );
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) return NOT_REQUIRED;
    if (!(isApiError(error) && error.isAborted)) {
      logger.warn("Could not check whether the agreement must be accepted", {
        code: isApiError(error) ? error.code : undefined,
      });
    }
    return NOT_REQUIRED;
  }
}

export function acceptAgreement(agreementId: string): Promise<TAcceptAgreementResponse> {
  return api.post<TAcceptAgreementResponse>("/agreements/accept", { agreementId, source: "web" });
}

export function declineAgreement(agreementId: string): Promise<TDeclineAgreementResponse> {
  return api.post<TDeclineAgreementResponse>("/agreements/decline", { agreementId, source: "web" });
}

export const AGREEMENT_STATUS_QUERY_KEY = ["agreements", "check-required"] as const;

import type {
  TBillingPeriod,
  TBillingSummary,
  TCheckoutOutcome,
  TCreateCheckoutSessionResponse,
  TCreditHistoryPage,
  TCreditPackId,
  TPaidTier,
  TPortalResponse,
  TPurchaseCreditsResponse,
  TUsageStats,
  TUserUsage,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";
import { isApiError } from "../../lib/api/api-error";
import { logger } from "../../lib/telemetry/logger";

/** The billing calls (types from contracts). */

export const BILLING_QUERY_KEY = ["billing"] as const;
export const billingKeys = {
  summary: [...BILLING_QUERY_KEY, "summary"] as const,
  usageStats: [...BILLING_QUERY_KEY, "usage-stats"] as const,
  usage: (days: number) => [...BILLING_QUERY_KEY, "usage", days] as const,
  creditHistory: (page: number, pageSize: number) =>
    [...BILLING_QUERY_KEY, "credit-history", page, pageSize] as const,
};

export function fetchBillingSummary(signal?: AbortSignal): Promise<TBillingSummary> {
  return api.get<TBillingSummary>("/billing/summary", { signal });
}

export const ZERO_USAGE_STATS: TUsageStats = {
  total_requests: 0,
  total_tokens: 0,
  total_cost: 0,
  total_credits_used: 0,
};

/** The API: usage stats are zeros on failure (logged, never an error on screen). */
export async function fetchUsageStats(signal?: AbortSignal): Promise<TUsageStats> {
  try {
    const stats = await api.get<Partial<TUsageStats>>("/billing/usage-stats", { signal });
    const number = (value: unknown) => (Number.isFinite(Number(value)) ? Number(value) : 0);
    return {
      total_requests: number(stats.total_requests),
      total_tokens: number(stats.total_tokens),
      total_cost: number(stats.total_cost),
      total_credits_used: number(stats.total_credits_used),
    };
  } catch (error) {
    if (isApiError(error) && error.isAborted) throw error;
    logger.warn("Usage stats unavailable; showing zeros", {
      code: isApiError(error) ? error.code : undefined,
    });
    return ZERO_USAGE_STATS;
  }
}

export function fetchUserUsage(days: number, signal?: AbortSignal): Promise<TUserUsage> {
  return api.get<TUserUsage>("/users/usage", { query: { days }, signal });
}

/** The credit history: one row per run (its calls inside), one per other ledger entry. */
export function fetchCreditHistory(
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<TCreditHistoryPage> {
  return api.get<TCreditHistoryPage>("/billing/credit-history", {
    query: { page, pageSize },
    signal,
  });
}

/** What a checkout bought and whether its payment has been applied yet. */
export function fetchCheckoutOutcome(id: string, signal?: AbortSignal): Promise<TCheckoutOutcome> {
  return api.get<TCheckoutOutcome>(`/billing/checkouts/${encodeURIComponent(id)}`, { signal });
}

export function createCheckoutSession(
  tier: TPaidTier,
  billingPeriod: TBillingPeriod,
): Promise<TCreateCheckoutSessionResponse> {
  return api.post<TCreateCheckoutSessionResponse>("/billing/create-checkout-session", {
    tier,
    billingPeriod,
  });
}

export function purchaseCredits(packageId: TCreditPackId): Promise<TPurchaseCreditsResponse> {
  return api.post<TPurchaseCreditsResponse>("/billing/purchase-credits", { packageId });
}

export function openPortal(): Promise<TPortalResponse> {
  return api.post<TPortalResponse>("/billing/portal");
}

/** Leaves the app for the payment provider's page (or the dev checkout). A seam for tests. */
export function goToExternalPage(url: string): void {
  window.location.assign(url);
}

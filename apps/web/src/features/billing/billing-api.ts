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
  TUserUsage,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";

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

import type { TUsageStats } from "@cohort/contracts";
import { logger } from "../telemetry/logger";
import { api } from "./api";
import { isApiError } from "./api-error";

export const ZERO_USAGE_STATS: TUsageStats = {
  total_requests: 0,
  total_tokens: 0,
  total_cost: 0,
  total_credits_used: 0,
};

/**
 * GET /billing/usage-stats, for Billing and the dashboard: zeros on failure (logged, never an
 * error on screen).
 */
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

import { SPENDING_ROUTES, type TSetSpendingLimit, type TSpendingLimit } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";

/** The personal monthly spending limit (GET/PUT /users/spending-limit; decision 053). */
export const SPENDING_LIMIT_QUERY_KEY = ["users", "spending-limit"] as const;

const path = SPENDING_ROUTES.limit.replace(/^\/api/, "");

export function useSpendingLimit() {
  return useQuery({
    queryKey: SPENDING_LIMIT_QUERY_KEY,
    queryFn: ({ signal }) => api.get<TSpendingLimit>(path, { signal }),
  });
}

export function saveSpendingLimit(monthlyLimit: number | null): Promise<TSpendingLimit> {
  const body: TSetSpendingLimit = { monthly_limit_credits: monthlyLimit };
  return api.put<TSpendingLimit>(path, body);
}

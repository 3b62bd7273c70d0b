import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api-error";

const MAX_QUERY_RETRIES = 2;

/**
 * Repeats only what might succeed on a second try: network failures and 5xx answers. A 4xx
 * (including 401 and 429) is a verdict on the request, a time-out already waited 30 s, and a
 * cancelled call was cancelled on purpose.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  if (!isApiError(error)) return true;
  if (error.isClientError || error.isTimeout || error.isAborted) return false;
  return true;
}

export function queryRetryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** attempt, 8_000);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        // Live data arrives over the socket; refetching on every tab focus would only add load.
        refetchOnWindowFocus: false,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      mutations: {
        // Mutations spend credits or change state; the user decides whether to repeat them.
        retry: false,
      },
    },
  });
}

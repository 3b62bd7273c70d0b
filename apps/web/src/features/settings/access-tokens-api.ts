import type {
  TAccessTokensResponse,
  TCreateAccessTokenRequest,
  TCreatedAccessTokenResponse,
  TSuccessResponse,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";

/** Personal access tokens for the public API (GET/POST /users/access-tokens, DELETE …/:id). */
export const ACCESS_TOKENS_QUERY_KEY = ["users", "access-tokens"] as const;

export function useAccessTokens() {
  return useQuery({
    queryKey: ACCESS_TOKENS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<TAccessTokensResponse>("/users/access-tokens", { signal }),
    select: (data) => data.tokens,
  });
}

export function createAccessToken(
  body: TCreateAccessTokenRequest,
): Promise<TCreatedAccessTokenResponse> {
  return api.post<TCreatedAccessTokenResponse>("/users/access-tokens", body);
}

export function revokeAccessToken(id: string): Promise<TSuccessResponse> {
  return api.delete<TSuccessResponse>(`/users/access-tokens/${encodeURIComponent(id)}`);
}

import type {
  TApiKeyRequest,
  TApiKeyResponse,
  TApiKeysResponse,
  TProviderId,
  TSuccessResponse,
  TTestApiKeyResponse,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";

/** Bring your own key (PUT/GET/DELETE /users/api-keys, POST /users/test-api-key). */
export const PROVIDER_KEYS_QUERY_KEY = ["users", "api-keys"] as const;

export function useProviderKeys() {
  return useQuery({
    queryKey: PROVIDER_KEYS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<TApiKeysResponse>("/users/api-keys", { signal }),
    select: (data) => data.keys,
  });
}

export function saveProviderKey(body: TApiKeyRequest): Promise<TApiKeyResponse> {
  return api.put<TApiKeyResponse>("/users/api-keys", body);
}

export function removeProviderKey(provider: TProviderId): Promise<TSuccessResponse> {
  return api.delete<TSuccessResponse>(`/users/api-keys/${encodeURIComponent(provider)}`);
}

export function testProviderKey(body: TApiKeyRequest): Promise<TTestApiKeyResponse> {
  return api.post<TTestApiKeyResponse>("/users/test-api-key", body);
}

import type {
  TApiKeyRequest,
  TApiKeyResponse,
  TApiKeysResponse,
  TProviderId,
  TSaveApiKeyRequest,
  TSuccessResponse,
  TTestApiKeyResponse,
} from "@cohort/contracts";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { chatKeys } from "../chat/chat-api";

/**
 * Bring your own key (PUT/GET/DELETE /users/api-keys, POST /users/test-api-key,
 * POST /users/api-keys/{provider}/test).
 */
export const PROVIDER_KEYS_QUERY_KEY = ["users", "api-keys"] as const;

/** CoChat's model list, whose badges count the user's keys. */
const COCHAT_MODELS_QUERY_KEY = ["cochat", "models"] as const;

export function useProviderKeys() {
  return useQuery({
    queryKey: PROVIDER_KEYS_QUERY_KEY,
    queryFn: ({ signal }) => api.get<TApiKeysResponse>("/users/api-keys", { signal }),
    select: (data) => data.keys,
  });
}

/** After a key is saved or removed: the keys, and every model list whose badges count them. */
export function refreshAfterKeyChange(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: PROVIDER_KEYS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: COCHAT_MODELS_QUERY_KEY }),
    queryClient.invalidateQueries({ queryKey: chatKeys.models }),
  ]);
}

export function saveProviderKey(body: TSaveApiKeyRequest): Promise<TApiKeyResponse> {
  return api.put<TApiKeyResponse>("/users/api-keys", body);
}

export function removeProviderKey(provider: TProviderId): Promise<TSuccessResponse> {
  return api.delete<TSuccessResponse>(`/users/api-keys/${encodeURIComponent(provider)}`);
}

export function testProviderKey(body: TApiKeyRequest): Promise<TTestApiKeyResponse> {
  return api.post<TTestApiKeyResponse>("/users/test-api-key", body);
}

export function retestProviderKey(provider: TProviderId): Promise<TApiKeyResponse> {
  return api.post<TApiKeyResponse>(`/users/api-keys/${encodeURIComponent(provider)}/test`);
}

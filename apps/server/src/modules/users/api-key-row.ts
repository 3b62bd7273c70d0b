import type { TApiKeyInfo, TApiKeyTestResult, TProviderId } from "@cohort/contracts";
import type { SealedSecret } from "./api-key-crypto";

/** The user_api_keys table as queries return it; only the users module reads it. */
export interface ApiKeyRow {
  user_id: string;
  provider: TProviderId;
  ciphertext: string;
  iv: string;
  auth_tag: string;
  key_id: string;
  last4: string;
  base_url: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  /** The key's last test (migration 0017); null before its first. */
  last_test_result: TApiKeyTestResult | null;
  last_test_message: string | null;
  last_tested_at: Date | string | null;
}

/** Columns safe to show: never the ciphertext. */
export const API_KEY_INFO_COLUMNS =
  "provider, last4, base_url, created_at, updated_at, last_test_result, last_test_message, last_tested_at";

export type ApiKeyInfoRow = Pick<
  ApiKeyRow,
  | "provider"
  | "last4"
  | "base_url"
  | "created_at"
  | "updated_at"
  | "last_test_result"
  | "last_test_message"
  | "last_tested_at"
>;

export function toApiKeyInfo(row: ApiKeyInfoRow): TApiKeyInfo {
  return {
    provider: row.provider,
    last4: row.last4,
    ...(row.base_url ? { baseURL: row.base_url } : {}),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_test:
      row.last_test_result && row.last_tested_at
        ? {
            result: row.last_test_result,
            message: row.last_test_message ?? "",
            tested_at: new Date(row.last_tested_at).toISOString(),
          }
        : null,
  };
}

export function sealedOf(row: ApiKeyRow): SealedSecret {
  return { ciphertext: row.ciphertext, iv: row.iv, tag: row.auth_tag, keyId: row.key_id };
}

/** The additional data a key is sealed with: it only opens in its own row. */
export function keyContext(userId: string, provider: TProviderId): string {
  return `user_api_keys:${userId}:${provider}`;
}

/** Short keys show nothing: four characters of an eight-character key would give half away. */
export function lastFourOf(apiKey: string): string {
  return apiKey.length >= 12 ? apiKey.slice(-4) : "";
}

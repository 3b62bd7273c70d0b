import { API_KEY_ERROR_CODES, type TApiKeyInfo, type TApiKeyRequest } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { UrlNotAllowedError } from "../../platform/ssrf";
import { sealSecret } from "./api-key-crypto";
import type { ApiKeyDeps } from "./api-key-deps";
import {
  API_KEY_INFO_COLUMNS,
  type ApiKeyRow,
  keyContext,
  lastFourOf,
  toApiKeyInfo,
} from "./api-key-row";

/** Refuses a base URL that is not http(s) or does not resolve only to allowed addresses. */
export async function checkBaseUrl(deps: ApiKeyDeps, baseURL: string): Promise<string> {
  try {
    const { url } = await deps.ssrf.checkBaseUrl(baseURL);
    return url.toString().replace(/\/+$/, "");
  } catch (error) {
    if (!(error instanceof UrlNotAllowedError)) throw error;
    throw new AppError(API_KEY_ERROR_CODES.baseUrlNotAllowed, 400, error.message, {
      reason: error.reason,
    });
  }
}

/**
 * Stores (or replaces) the user's key for one provider, encrypted. The base URL is checked
 * here and again on every call, since what a name resolves to can change.
 */
export async function saveApiKey(
  deps: ApiKeyDeps,
  userId: string,
  input: TApiKeyRequest,
): Promise<TApiKeyInfo> {
  const baseUrl = input.baseURL ? await checkBaseUrl(deps, input.baseURL) : null;
  const sealed = sealSecret(deps.keyRing, input.apiKey, keyContext(userId, input.provider));
  const { rows } = await deps.db.query<ApiKeyRow>(
    `INSERT INTO user_api_keys
       (user_id, provider, ciphertext, iv, auth_tag, key_id, last4, base_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_id, provider) DO UPDATE SET
       ciphertext = EXCLUDED.ciphertext, iv = EXCLUDED.iv, auth_tag = EXCLUDED.auth_tag,
       key_id = EXCLUDED.key_id, last4 = EXCLUDED.last4, base_url = EXCLUDED.base_url,
       updated_at = now()
     RETURNING ${API_KEY_INFO_COLUMNS}`,
    [
      userId,
      input.provider,
      sealed.ciphertext,
      sealed.iv,
      sealed.tag,
      sealed.keyId,
      lastFourOf(input.apiKey),
      baseUrl,
    ],
  );
  return toApiKeyInfo(rows[0] as ApiKeyRow);
}

import {
  API_KEY_ERROR_CODES,
  type TApiKeyInfo,
  type TApiKeyRequest,
  type TSaveApiKeyRequest,
  type TTestApiKeyResponse,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { UrlNotAllowedError } from "../../platform/ssrf";
import { sealSecret } from "./api-key-crypto";
import type { ApiKeyDeps } from "./api-key-deps";
import {
  API_KEY_INFO_COLUMNS,
  type ApiKeyInfoRow,
  keyContext,
  lastFourOf,
  toApiKeyInfo,
} from "./api-key-row";
import { type TestApiKeyDeps, testApiKey } from "./test-api-key";

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
 * PUT with `test`: the key's verdict before it is stored. A key that fails its test is not
 * stored unless the user confirmed (`saveIfTestFails`): 422 with the verdict in `details`.
 */
export async function testBeforeSaving(
  deps: ApiKeyDeps,
  tests: TestApiKeyDeps,
  input: TSaveApiKeyRequest,
): Promise<TTestApiKeyResponse | undefined> {
  if (!input.test) return undefined;
  // An address the key could never be stored with is refused as such, not as a failed test.
  if (input.baseURL) await checkBaseUrl(deps, input.baseURL);
  const verdict = await testApiKey(tests, input);
  if (!verdict.valid && !input.saveIfTestFails) {
    throw new AppError(
      API_KEY_ERROR_CODES.testFailed,
      422,
      `The key was not saved: its test failed. ${verdict.message}`,
      { result: verdict.result, message: verdict.message },
    );
  }
  return verdict;
}

/**
 * Stores (or replaces) the user's key for one provider, encrypted, with the verdict of the
 * test it just passed (or failed, confirmed) when there was one. The base URL is checked here
 * and again on every call, since what a name resolves to can change.
 */
export async function saveApiKey(
  deps: ApiKeyDeps,
  userId: string,
  input: TApiKeyRequest,
  verdict?: TTestApiKeyResponse,
): Promise<TApiKeyInfo> {
  const baseUrl = input.baseURL ? await checkBaseUrl(deps, input.baseURL) : null;
  const sealed = sealSecret(deps.keyRing, input.apiKey, keyContext(userId, input.provider));
  const { rows } = await deps.db.query<ApiKeyInfoRow>(
    `INSERT INTO user_api_keys
       (user_id, provider, ciphertext, iv, auth_tag, key_id, last4, base_url,
        last_test_result, last_test_message, last_tested_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (user_id, provider) DO UPDATE SET
       ciphertext = EXCLUDED.ciphertext, iv = EXCLUDED.iv, auth_tag = EXCLUDED.auth_tag,
       key_id = EXCLUDED.key_id, last4 = EXCLUDED.last4, base_url = EXCLUDED.base_url,
       last_test_result = EXCLUDED.last_test_result,
       last_test_message = EXCLUDED.last_test_message,
       last_tested_at = EXCLUDED.last_tested_at,
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
      verdict?.result ?? null,
      verdict?.message ?? null,
      verdict?.tested_at ?? null,
    ],
  );
  return toApiKeyInfo(rows[0] as ApiKeyInfoRow);
}

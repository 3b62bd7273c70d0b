import type { TApiKeyInfo, TProviderId } from "@cohort/contracts";
import type { ApiKeyDeps } from "./api-key-deps";
import { API_KEY_INFO_COLUMNS, type ApiKeyInfoRow, toApiKeyInfo } from "./api-key-row";
import { loadUserKey } from "./load-user-keys";
import { type TestApiKeyDeps, testApiKey } from "./test-api-key";

/**
 * Settings' "Test again": the stored key tested as the first time, its verdict and time kept
 * with it. Undefined when the user has no readable key for the provider. A key replaced while
 * the test ran keeps its own (new) state: the old key's verdict is not written onto it.
 */
export async function retestApiKey(
  deps: ApiKeyDeps,
  tests: TestApiKeyDeps,
  userId: string,
  provider: TProviderId,
): Promise<TApiKeyInfo | undefined> {
  const key = await loadUserKey(deps, userId, provider);
  if (!key) return undefined;
  const verdict = await testApiKey(tests, {
    provider,
    apiKey: key.apiKey,
    ...(key.baseURL ? { baseURL: key.baseURL } : {}),
  });
  const { rows } = await deps.db.query<ApiKeyInfoRow>(
    `UPDATE user_api_keys
     SET last_test_result = $3, last_test_message = $4, last_tested_at = $5
     WHERE user_id = $1 AND provider = $2 AND updated_at::text = $6
     RETURNING ${API_KEY_INFO_COLUMNS}`,
    [userId, provider, verdict.result, verdict.message, verdict.tested_at, key.version],
  );
  if (rows[0]) return toApiKeyInfo(rows[0]);
  const { rows: current } = await deps.db.query<ApiKeyInfoRow>(
    `SELECT ${API_KEY_INFO_COLUMNS} FROM user_api_keys WHERE user_id = $1 AND provider = $2`,
    [userId, provider],
  );
  return current[0] ? toApiKeyInfo(current[0]) : undefined;
}

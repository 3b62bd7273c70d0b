import type { TProviderId } from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import type { ProviderCredential, UserProviderKeys } from "../models/providers";
import { currentKeyId, openSecret, SecretUnreadableError, sealSecret } from "./api-key-crypto";
import type { ApiKeyDeps } from "./api-key-deps";
import { type ApiKeyRow, keyContext, sealedOf } from "./api-key-row";

/** Whether the user has stored provider keys, as a column of another module's statement. */
export function providerKeysExistSubquery(userIdSql: string): string {
  return `EXISTS (SELECT 1 FROM user_api_keys k WHERE k.user_id = ${userIdSql})`;
}

/**
 * The signed-in user's keys. The sign-in's statement already said whether there are any, so a
 * user who brought none (most users) costs no read here: one statement less before a CoChat
 * answer's first token and in every run's start.
 */
export function loadSignedInUserKeys(
  deps: ApiKeyDeps,
  principal: Principal,
): Promise<UserProviderKeys> {
  return principal.hasProviderKeys ? loadUserKeys(deps, principal.user.id) : Promise.resolve({});
}

/**
 * The user's keys, decrypted, in the model gateway's `userKeys` shape (CoChat, runs). A base
 * URL comes with the SSRF guard's fetch, so every call to it is checked again. A key sealed
 * with a rotated-out ENCRYPTION_KEY is re-sealed with the current one on the way; one that no
 * configured key opens is left out (and logged), so the call falls back to hosted keys.
 */
export async function loadUserKeys(deps: ApiKeyDeps, userId: string): Promise<UserProviderKeys> {
  const { rows } = await deps.db.query<ApiKeyRow>(
    `SELECT user_id, provider, ciphertext, iv, auth_tag, key_id, last4, base_url,
            created_at, updated_at
     FROM user_api_keys WHERE user_id = $1`,
    [userId],
  );
  const keys: UserProviderKeys = {};
  const current = currentKeyId(deps.keyRing);
  for (const row of rows) {
    const context = keyContext(userId, row.provider);
    let apiKey: string;
    try {
      apiKey = openSecret(deps.keyRing, sealedOf(row), context);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      deps.log?.warn(
        { userId, provider: row.provider, keyId: row.key_id },
        "a stored provider key cannot be decrypted with the configured ENCRYPTION_KEY(s); ignoring it",
      );
      continue;
    }
    if (row.key_id !== current) await reseal(deps, userId, row.provider, row.key_id, apiKey);
    const credential: ProviderCredential = row.base_url
      ? { apiKey, baseURL: row.base_url, fetch: deps.ssrf.fetch }
      : { apiKey };
    keys[row.provider as TProviderId] = credential;
  }
  return keys;
}

async function reseal(
  deps: ApiKeyDeps,
  userId: string,
  provider: TProviderId,
  oldKeyId: string,
  apiKey: string,
): Promise<void> {
  const sealed = sealSecret(deps.keyRing, apiKey, keyContext(userId, provider));
  // Only if nobody replaced the key meanwhile (the old key id still matches).
  await deps.db.query(
    `UPDATE user_api_keys SET ciphertext = $4, iv = $5, auth_tag = $6, key_id = $7
     WHERE user_id = $1 AND provider = $2 AND key_id = $3`,
    [userId, provider, oldKeyId, sealed.ciphertext, sealed.iv, sealed.tag, sealed.keyId],
  );
}

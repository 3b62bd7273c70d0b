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

/** A stored key, decrypted: what a call or a key test sends. */
export interface OpenedKey {
  provider: TProviderId;
  apiKey: string;
  baseURL: string | null;
  /** The row's updated_at as text (full precision): changes when the key is replaced. */
  version: string;
}

/**
 * The user's stored keys (or one provider's), decrypted. A key sealed with a rotated-out
 * ENCRYPTION_KEY is re-sealed with the current one on the way; one that no configured key
 * opens is left out (and logged).
 */
async function openKeys(
  deps: ApiKeyDeps,
  userId: string,
  provider?: TProviderId,
): Promise<OpenedKey[]> {
  const { rows } = await deps.db.query<ApiKeyRow & { version: string }>(
    `SELECT user_id, provider, ciphertext, iv, auth_tag, key_id, last4, base_url,
            created_at, updated_at, updated_at::text AS version
     FROM user_api_keys WHERE user_id = $1${provider ? " AND provider = $2" : ""}`,
    provider ? [userId, provider] : [userId],
  );
  const keys: OpenedKey[] = [];
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
    keys.push({
      provider: row.provider,
      apiKey,
      baseURL: row.base_url,
      version: row.version,
    });
  }
  return keys;
}

/**
 * The user's keys, decrypted, in the model gateway's `userKeys` shape (CoChat, runs). A base
 * URL comes with the SSRF guard's fetch, so every call to it is checked again. A key no
 * configured ENCRYPTION_KEY opens is left out, so its models run as if it was never saved.
 */
export async function loadUserKeys(deps: ApiKeyDeps, userId: string): Promise<UserProviderKeys> {
  const keys: UserProviderKeys = {};
  for (const key of await openKeys(deps, userId)) {
    const credential: ProviderCredential = key.baseURL
      ? { apiKey: key.apiKey, baseURL: key.baseURL, fetch: deps.ssrf.fetch }
      : { apiKey: key.apiKey };
    keys[key.provider] = credential;
  }
  return keys;
}

/** One provider's stored key, decrypted (a re-test); undefined when none can be read. */
export async function loadUserKey(
  deps: ApiKeyDeps,
  userId: string,
  provider: TProviderId,
): Promise<OpenedKey | undefined> {
  return (await openKeys(deps, userId, provider))[0];
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

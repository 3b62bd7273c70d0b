import type { TAccessTokenScope, TCreatedAccessTokenResponse } from "@cohort/contracts";
import type { TestClient } from "./client";

export interface CreateTestTokenOptions {
  name?: string;
  scopes?: TAccessTokenScope[];
  /** Days until it expires; absent or null: never. */
  expiresInDays?: number | null;
}

/**
 * Creates a personal access token for the signed-in user of `client` (from `signUp`) through
 * the real Settings call, and returns the token (`cohort_pat_…`, for `Authorization: Bearer`)
 * with its list entry. Both scopes unless told otherwise.
 */
export async function createTestAccessToken(
  client: TestClient,
  options: CreateTestTokenOptions = {},
): Promise<TCreatedAccessTokenResponse> {
  const response = await client.post("/api/users/access-tokens", {
    name: options.name ?? "test token",
    scopes: options.scopes ?? ["chat", "sessions:read"],
    ...(options.expiresInDays !== undefined ? { expires_in_days: options.expiresInDays } : {}),
  });
  if (response.statusCode !== 201) {
    throw new Error(`creating an access token failed: ${response.statusCode} ${response.body}`);
  }
  return response.json() as TCreatedAccessTokenResponse;
}

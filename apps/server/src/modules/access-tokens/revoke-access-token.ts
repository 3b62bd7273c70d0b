import type { TAccessTokenInfo } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import {
  ACCESS_TOKEN_INFO_COLUMNS,
  type AccessTokenRow,
  toAccessTokenInfo,
} from "./access-token-row";

/**
 * Revokes one of the user's tokens; null when it is not theirs (or no token at all). Revoking
 * a revoked token keeps its first date. Nothing caches a token, so the next request with it
 * is refused, on every instance.
 */
export async function revokeAccessToken(
  db: Queryable,
  userId: string,
  tokenId: string,
): Promise<TAccessTokenInfo | null> {
  if (!isUuid(tokenId)) return null;
  const { rows } = await db.query<AccessTokenRow>(
    `UPDATE access_tokens SET revoked_at = COALESCE(revoked_at, now())
     WHERE id = $1 AND user_id = $2
     RETURNING ${ACCESS_TOKEN_INFO_COLUMNS}`,
    [tokenId, userId],
  );
  const row = rows[0];
  return row ? toAccessTokenInfo(row) : null;
}

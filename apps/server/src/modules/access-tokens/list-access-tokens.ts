import type { TAccessTokenInfo } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import {
  ACCESS_TOKEN_INFO_COLUMNS,
  type AccessTokenRow,
  toAccessTokenInfo,
} from "./access-token-row";

/** The user's tokens, newest first, revoked ones included (marked), never the token itself. */
export async function listAccessTokens(db: Queryable, userId: string): Promise<TAccessTokenInfo[]> {
  const { rows } = await db.query<AccessTokenRow>(
    `SELECT ${ACCESS_TOKEN_INFO_COLUMNS} FROM access_tokens
     WHERE user_id = $1 ORDER BY created_at DESC, id`,
    [userId],
  );
  return rows.map(toAccessTokenInfo);
}

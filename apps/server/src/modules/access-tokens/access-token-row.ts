import { ACCESS_TOKEN_PREFIX, type TAccessTokenInfo, ZAccessTokenScope } from "@cohort/contracts";
import { isoTimestamp, isoTimestampOrNull } from "../../db/client";

/** The access_tokens table as the owner's list reads it: never the hash. */
export interface AccessTokenRow {
  id: string;
  name: string;
  last4: string;
  scopes: string[];
  created_at: Date | string;
  expires_at: Date | string | null;
  last_used_at: Date | string | null;
  last_used_ip: string | null;
  revoked_at: Date | string | null;
}

export const ACCESS_TOKEN_INFO_COLUMNS =
  "id, name, last4, scopes, created_at, expires_at, last_used_at, last_used_ip, revoked_at";

export function toAccessTokenInfo(row: AccessTokenRow): TAccessTokenInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: ACCESS_TOKEN_PREFIX,
    last4: row.last4,
    // A scope a later version dropped is simply not shown (nor, elsewhere, granted).
    scopes: row.scopes.flatMap((scope) => {
      const parsed = ZAccessTokenScope.safeParse(scope);
      return parsed.success ? [parsed.data] : [];
    }),
    created_at: isoTimestamp(row.created_at),
    expires_at: isoTimestampOrNull(row.expires_at),
    last_used_at: isoTimestampOrNull(row.last_used_at),
    last_used_ip: row.last_used_ip,
    revoked_at: isoTimestampOrNull(row.revoked_at),
  };
}

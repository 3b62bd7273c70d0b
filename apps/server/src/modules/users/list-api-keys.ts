import type { TApiKeyInfo } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { API_KEY_INFO_COLUMNS, type ApiKeyInfoRow, toApiKeyInfo } from "./api-key-row";

/** The user's stored keys as the API shows them: provider, last four, base URL, dates. */
export async function listApiKeys(db: Queryable, userId: string): Promise<TApiKeyInfo[]> {
  const { rows } = await db.query<ApiKeyInfoRow>(
    `SELECT ${API_KEY_INFO_COLUMNS} FROM user_api_keys WHERE user_id = $1 ORDER BY provider`,
    [userId],
  );
  return rows.map(toApiKeyInfo);
}

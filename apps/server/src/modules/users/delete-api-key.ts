import type { TProviderId } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** Forgets the user's key for a provider; false when there was none. */
export async function deleteApiKey(
  db: Queryable,
  userId: string,
  provider: TProviderId,
): Promise<boolean> {
  const { rowCount } = await db.query(
    "DELETE FROM user_api_keys WHERE user_id = $1 AND provider = $2",
    [userId, provider],
  );
  return rowCount > 0;
}

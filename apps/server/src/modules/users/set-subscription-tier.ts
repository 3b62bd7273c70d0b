import type { TSubscriptionTier } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** The tier shown on the profile; billing decides it (subscriptions, admin grants). */
export async function setSubscriptionTier(
  db: Queryable,
  userId: string,
  tier: TSubscriptionTier,
): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE users SET subscription_tier = $2, updated_at = now() WHERE id = $1",
    [userId, tier],
  );
  return rowCount > 0;
}

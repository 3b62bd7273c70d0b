import { hasMemoryAccess, type TMemorySettings, type TSubscriptionTier } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { subscriptionTierSubquery } from "../users/find-user";

interface AccessRow {
  tier: TSubscriptionTier | null;
  paused: boolean | null;
  auto_save: boolean | null;
}

/**
 * Whether memory works for the user now: their plan includes it (Pro+ and Enterprise) and
 * they have not paused it. What runs read before they propose or use memories: the tier and
 * the switches in one statement (decision 086), not the whole profile and its balance.
 */
export async function memoryActive(
  db: Queryable,
  userId: string,
): Promise<{ active: boolean; settings: TMemorySettings }> {
  const { rows } = await db.query<AccessRow>(
    `SELECT ${subscriptionTierSubquery("$1")} AS tier, s.paused, s.auto_save
     FROM (SELECT 1) AS one LEFT JOIN memory_settings s ON s.user_id = $1`,
    [userId],
  );
  const row = rows[0];
  if (!row?.tier || !hasMemoryAccess(row.tier)) {
    return { active: false, settings: { paused: false, auto_save: false } };
  }
  const settings = { paused: row.paused ?? false, auto_save: row.auto_save ?? false };
  return { active: !settings.paused, settings };
}

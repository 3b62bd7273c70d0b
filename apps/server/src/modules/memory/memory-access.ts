import { hasMemoryAccess, type TMemorySettings } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { findUserById } from "../users/find-user";
import { getMemorySettings } from "./memory-settings";

/**
 * Whether memory works for the user now: their plan includes it (Pro+ and Enterprise) and
 * they have not paused it. What runs read before they propose or use memories.
 */
export async function memoryActive(
  db: Queryable,
  userId: string,
): Promise<{ active: boolean; settings: TMemorySettings }> {
  const user = await findUserById(db, userId);
  if (!user || !hasMemoryAccess(user.subscription_tier)) {
    return { active: false, settings: { paused: false, auto_save: false } };
  }
  const settings = await getMemorySettings(db, userId);
  return { active: !settings.paused, settings };
}

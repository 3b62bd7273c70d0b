import { ERROR_CODES, type TSubscriptionTier, type TUserProfile } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { findUserById } from "../users/find-user";
import { setSubscriptionTier } from "../users/set-subscription-tier";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

/**
 * An administrator's tier grant (support, trials, tests) without a payment, with its audit
 * entry. A later Stripe event about the user's subscription sets the tier again from it.
 */
export async function setUserTier(
  db: Db,
  actor: AdminActor,
  userId: string,
  tier: TSubscriptionTier,
): Promise<TUserProfile> {
  return db.transaction(async (tx) => {
    const before = await findUserById(tx, userId);
    if (!before || !(await setSubscriptionTier(tx, userId, tier))) {
      throw new AppError(ERROR_CODES.notFound, 404, "This user does not exist.");
    }
    await recordAdminAction(tx, actor, {
      action: "user.tier",
      targetType: "user",
      targetId: userId,
      before: { tier: before.subscription_tier },
      after: { tier },
    });
    return (await findUserById(tx, userId)) ?? before;
  });
}

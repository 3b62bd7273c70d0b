import { ERROR_CODES, type TSubscriptionTier, type TUserProfile } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { findUserById } from "../users/find-user";
import { setSubscriptionTier } from "../users/set-subscription-tier";

/**
 * An administrator's tier grant (support, trials, tests) without a payment. A later Stripe
 * event about the user's subscription sets the tier again from that subscription.
 */
export async function grantTier(
  db: Db,
  userId: string,
  tier: TSubscriptionTier,
): Promise<TUserProfile> {
  const changed = await setSubscriptionTier(db, userId, tier);
  const user = changed ? await findUserById(db, userId) : null;
  if (!user) throw new AppError(ERROR_CODES.notFound, 404, "This user does not exist.");
  return user;
}

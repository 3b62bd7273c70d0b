import {
  ACCOUNT_DATA_ERROR_CODES,
  ACCOUNT_DATA_MESSAGES,
  type TDeleteAccountRequest,
  type TUserProfile,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { findPasswordHash } from "../auth/set-password";
import { verifyPassword } from "../auth/verify-password";
import { findSubscription } from "../billing/apply-subscription-state";
import { normalizeEmail } from "../users/create-user";
import type { AccountMembership } from "../workspaces/account-workspaces";

/**
 * The second factor of "yes, delete it": the password of an account that has one; an account
 * without a password (Google only) types its email address, the one thing it can prove it
 * knows without leaving the page. Wrong → 403 and nothing changed.
 */
export async function checkDeleteConfirmation(
  db: Queryable,
  user: TUserProfile,
  body: TDeleteAccountRequest,
): Promise<void> {
  const stored = await findPasswordHash(db, user.id);
  if (stored) {
    if (!body.password) {
      throw confirmationFailed(ACCOUNT_DATA_MESSAGES.passwordRequired);
    }
    if (!(await verifyPassword(stored, body.password))) {
      throw confirmationFailed(ACCOUNT_DATA_MESSAGES.wrongPassword);
    }
    return;
  }
  if (!body.email || normalizeEmail(body.email) !== normalizeEmail(user.email)) {
    throw confirmationFailed(ACCOUNT_DATA_MESSAGES.wrongEmail);
  }
}

function confirmationFailed(message: string): AppError {
  return new AppError(ACCOUNT_DATA_ERROR_CODES.confirmationFailed, 403, message);
}

/**
 * What must be settled before an account can go: a team that would be left with members but
 * no owner, and a paid plan the payment provider would go on charging for.
 */
export async function checkNothingBlocksDeletion(
  db: Queryable,
  userId: string,
  blocking: readonly AccountMembership[],
): Promise<void> {
  if (blocking.length > 0) {
    throw new AppError(
      ACCOUNT_DATA_ERROR_CODES.soleOwner,
      409,
      ACCOUNT_DATA_MESSAGES.soleOwner(blocking.map((team) => team.name)),
      { workspace_ids: blocking.map((team) => team.workspace_id) },
    );
  }
  const subscription = await findSubscription(db, { userId });
  const renews =
    subscription &&
    ["active", "trialing", "past_due"].includes(subscription.status) &&
    !subscription.cancel_at_period_end;
  if (renews) {
    throw new AppError(
      ACCOUNT_DATA_ERROR_CODES.subscriptionActive,
      409,
      ACCOUNT_DATA_MESSAGES.subscriptionActive,
    );
  }
}

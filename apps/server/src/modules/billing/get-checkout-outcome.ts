import {
  BILLING_ERROR_CODES,
  findCreditPack,
  findPlan,
  type TCheckoutOutcome,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { CHECKOUT_COLUMNS, type CheckoutRow } from "./checkout-row";

/**
 * What one of the user's checkouts bought and whether its payment has been applied: the
 * return to /billing says exactly that (decision 032). Anyone else's checkout, or an id that
 * is none, is the same 404, so ids cannot be probed.
 */
export async function getCheckoutOutcome(
  db: Queryable,
  userId: string,
  checkoutId: string,
): Promise<TCheckoutOutcome> {
  const { rows } = await db.query<CheckoutRow>(
    `SELECT ${CHECKOUT_COLUMNS} FROM billing_checkouts WHERE id = $1 AND user_id = $2`,
    [checkoutId, userId],
  );
  const row = rows[0];
  if (!row) {
    throw new AppError(BILLING_ERROR_CODES.unknownCheckout, 404, "This checkout does not exist.");
  }
  const plan = row.tier ? findPlan(row.tier) : undefined;
  const pack = row.package_id ? findCreditPack(row.package_id) : undefined;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    credits: Number(row.credits),
    tier: row.tier,
    plan_name: plan?.name ?? null,
    billing_period: row.billing_period,
    pack_name: pack?.name ?? null,
    amount_usd: Number(row.amount_cents) / 100,
  };
}

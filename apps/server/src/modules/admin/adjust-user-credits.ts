import { randomUUID } from "node:crypto";
import type { TAdminCreditAdjustmentResponse } from "@cohort/contracts";
import { applyLedgerEntry } from "../credits/apply-ledger-entry";
import type { CreditsDeps } from "../credits/credits-deps";
import { getBalance } from "../credits/get-balance";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

/**
 * An administrator's grant (positive) or deduction (negative): one ledger row (reason
 * admin_adjustment, the reason as its description) and its audit entry, in one transaction.
 * A deduction may not take more than the available balance (402). The same idempotency key
 * never adjusts twice, and then writes no second audit entry either.
 */
export async function adjustUserCredits(
  deps: CreditsDeps,
  actor: AdminActor,
  input: { userId: string; credits: number; reason: string; idempotencyKey?: string | undefined },
): Promise<TAdminCreditAdjustmentResponse> {
  const change = await deps.db.transaction(async (tx) => {
    const applied = await applyLedgerEntry(tx, {
      userId: input.userId,
      credits: input.credits,
      reason: "admin_adjustment",
      reference: input.idempotencyKey ?? randomUUID(),
      description: input.reason,
    });
    if (applied) {
      await recordAdminAction(tx, actor, {
        action: "credits.adjust",
        targetType: "user",
        targetId: input.userId,
        before: { balance: Math.round((applied.balance - applied.delta) * 100) / 100 },
        after: { balance: applied.balance, delta: applied.delta },
        reason: input.reason,
      });
    }
    return applied;
  });
  if (!change) return { applied: false, ...(await getBalance(deps.db, input.userId)) };
  deps.publish([change]);
  return { applied: true, balance: change.balance, available: change.available };
}

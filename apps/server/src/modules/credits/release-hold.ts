import { fromHundredths } from "./amounts";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { lockHold } from "./settle-hold";

/**
 * Gives a hold's credits back to the available balance (a failed or cancelled call, or the
 * sweeper with `expired`). Returns false when the hold was already closed: nothing changed.
 */
export async function releaseHold(
  deps: CreditsDeps,
  holdId: string,
  status: "released" | "expired" = "released",
): Promise<boolean> {
  const change = await deps.db.transaction(async (tx) => {
    const hold = await lockHold(tx, holdId);
    if (hold.status !== "open") return null;
    if (status === "expired") {
      const due = await tx.query(
        "SELECT 1 FROM credit_holds WHERE id = $1 AND expires_at <= now()",
        [holdId],
      );
      if (due.rows.length === 0) return null;
    }
    const { rows } = await tx.query<{ balance: number; held: number }>(
      `UPDATE credit_accounts SET held = held - $2, updated_at = now()
       WHERE user_id = $1 RETURNING balance, held`,
      [hold.user_id, hold.amount],
    );
    await tx.query("UPDATE credit_holds SET status = $2, closed_at = now() WHERE id = $1", [
      holdId,
      status,
    ]);
    const account = rows[0] as { balance: number; held: number };
    const released: CreditChange = {
      userId: hold.user_id,
      balance: fromHundredths(account.balance),
      available: fromHundredths(account.balance - account.held),
      delta: 0,
      reason: status === "expired" ? "hold_expired" : "hold_released",
    };
    return released;
  });
  if (!change) return false;
  deps.publish([change]);
  return true;
}

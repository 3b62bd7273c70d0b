import { creditsOf, ERROR_CODES, hundredths } from "@cohort/contracts";
import { prepared } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { CreditChange, CreditsDeps } from "./credits-deps";

/**
 * One statement, committed on its own: close the hold if it is open (and, for the sweeper,
 * due) and give its amount back to the account. Closing the hold takes its row lock, so a
 * concurrent settle or release finds it closed and changes nothing. A team member's hold
 * stops counting against the member's cap in the same statement (member use is read from
 * the holds, migration 0025).
 */
const RELEASE_OPEN = prepared(`
  WITH hold AS (
    UPDATE credit_holds SET status = $2, closed_at = now()
    WHERE id = $1 AND status = 'open' AND ($2 <> 'expired' OR expires_at <= now())
    RETURNING user_id, member_id, amount
  )
  UPDATE credit_accounts SET held = credit_accounts.held - hold.amount, updated_at = now()
  FROM hold WHERE credit_accounts.user_id = hold.user_id
  RETURNING credit_accounts.user_id, credit_accounts.balance, credit_accounts.held,
    hold.member_id`);

/**
 * Gives a hold's credits back to the available balance (a failed or cancelled call, or the
 * sweeper with `expired`). Returns false when the hold was already closed: nothing changed.
 */
export async function releaseHold(
  deps: CreditsDeps,
  holdId: string,
  status: "released" | "expired" = "released",
): Promise<boolean> {
  const { rows } = await deps.db.query<{
    user_id: string;
    balance: number;
    held: number;
    member_id: string | null;
  }>(RELEASE_OPEN, [holdId, status]);
  const account = rows[0];
  if (!account) {
    const found = await deps.db.query("SELECT 1 FROM credit_holds WHERE id = $1", [holdId]);
    if (found.rows.length === 0) {
      throw new AppError(ERROR_CODES.notFound, 404, "This credit hold does not exist.");
    }
    return false;
  }
  const released: CreditChange = {
    userId: account.user_id,
    balance: creditsOf(hundredths(account.balance)),
    available: creditsOf(hundredths(account.balance - account.held)),
    delta: 0,
    reason: status === "expired" ? "hold_expired" : "hold_released",
    ...(account.member_id === null ? {} : { workspace_id: account.user_id }),
  };
  deps.publish([released]);
  return true;
}

import { ERROR_CODES } from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { fromHundredths, toHundredths } from "./amounts";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { insufficientCredits } from "./insufficient-credits";

/**
 * Holds `credits` of the user's available balance (balance − open holds) for a call that is
 * about to run; 402 `insufficient_credits` when they are not there. The reference makes it
 * idempotent: reserving again with the same reference returns the first hold unchanged.
 */
export async function reserveCredits(
  deps: CreditsDeps,
  userId: string,
  credits: number,
  reference: string,
): Promise<Hold> {
  const amount = toHundredths(credits);
  if (amount <= 0) throw new RangeError("a hold reserves at least 0.01 credits");
  const { row, change } = await deps.db.transaction(async (tx) => {
    // The hold row first: a concurrent reserve with the same reference waits on the unique
    // index and then finds this one, instead of both holding credits.
    const inserted = await tx.query<HoldRow>(
      `INSERT INTO credit_holds (user_id, reference, amount, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (reference) DO NOTHING
       RETURNING ${HOLD_COLUMNS}`,
      [userId, reference, amount, deps.holdTtlMs / 1000],
    );
    const hold = inserted.rows[0];
    if (!hold) {
      const { rows } = await tx.query<HoldRow>(
        `SELECT ${HOLD_COLUMNS} FROM credit_holds WHERE reference = $1`,
        [reference],
      );
      const existing = rows[0] as HoldRow;
      if (existing.user_id !== userId) {
        throw new AppError(ERROR_CODES.conflict, 409, "This hold reference is already in use.");
      }
      return { row: existing, change: null };
    }
    // A conditional update: under concurrency the row lock makes each one see the held
    // amount of the one before, so the available balance can never be overdrawn.
    const { rows } = await tx.query<{ balance: number; held: number }>(
      `UPDATE credit_accounts SET held = held + $2, updated_at = now()
       WHERE user_id = $1 AND balance - held >= $2
       RETURNING balance, held`,
      [userId, amount],
    );
    const account = rows[0];
    if (!account) {
      const current = await tx.query<{ available: number }>(
        "SELECT balance - held AS available FROM credit_accounts WHERE user_id = $1",
        [userId],
      );
      throw insufficientCredits(credits, fromHundredths(current.rows[0]?.available ?? 0));
    }
    const change: CreditChange = {
      userId,
      balance: fromHundredths(account.balance),
      available: fromHundredths(account.balance - account.held),
      delta: 0,
      reason: "hold",
    };
    return { row: hold, change };
  });
  if (change) deps.publish([change]);
  return toHold(row);
}

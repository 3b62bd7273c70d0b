import { ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { fromHundredths, toHundredths } from "./amounts";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { insertUsage, type UsageInput } from "./record-usage";

export interface Settlement {
  hold: Hold;
  /** Credits taken from the balance by this call; 0 when the hold had been closed before. */
  charged: number;
  /** false when the hold was already settled or released: nothing changed. */
  applied: boolean;
}

/**
 * Charges the actual cost of a call against its hold — never more than was held — and
 * releases the rest, in one transaction. Settling a hold twice changes nothing the second
 * time; settling a released hold charges nothing. A hold the sweeper expired while its call
 * was still running is charged what the available balance still covers, so a slow call is
 * not free and the balance still never goes below zero.
 */
export async function settleHold(
  deps: CreditsDeps,
  holdId: string,
  actualCredits: number,
): Promise<Settlement> {
  return settle(deps, holdId, actualCredits, null);
}

/** settleHold and the call's usage row in the same transaction: both or neither. */
export async function settleHoldWithUsage(
  deps: CreditsDeps,
  holdId: string,
  actualCredits: number,
  usage: Omit<UsageInput, "userId" | "credits" | "reference">,
): Promise<Settlement> {
  return settle(deps, holdId, actualCredits, usage);
}

async function settle(
  deps: CreditsDeps,
  holdId: string,
  actualCredits: number,
  usage: Omit<UsageInput, "userId" | "credits" | "reference"> | null,
): Promise<Settlement> {
  const actual = toHundredths(actualCredits);
  if (actual < 0) throw new RangeError("a call costs 0 credits or more");
  const { settlement, change } = await deps.db.transaction(async (tx) => {
    // The common case in one statement: close an open hold (locking it) and fix its charge.
    const closed = await tx.query<HoldRow>(
      `UPDATE credit_holds SET status = 'settled', charged = LEAST($2::bigint, amount),
         closed_at = now()
       WHERE id = $1 AND status = 'open'
       RETURNING ${HOLD_COLUMNS}`,
      [holdId, actual],
    );
    let hold = closed.rows[0];
    let account: { balance: number; held: number };
    if (hold) {
      const { rows } = await tx.query<{ balance: number; held: number }>(
        `UPDATE credit_accounts SET balance = balance - $2, held = held - $3, updated_at = now()
         WHERE user_id = $1 RETURNING balance, held`,
        [hold.user_id, hold.charged, hold.amount],
      );
      account = rows[0] as { balance: number; held: number };
    } else {
      const locked = await lockHold(tx, holdId);
      if (locked.status !== "expired") {
        return { settlement: { hold: toHold(locked), charged: 0, applied: false }, change: null };
      }
      const { rows } = await tx.query<{ balance: number; held: number }>(
        "SELECT balance, held FROM credit_accounts WHERE user_id = $1 FOR UPDATE",
        [locked.user_id],
      );
      const current = rows[0] as { balance: number; held: number };
      const charge = Math.max(0, Math.min(actual, locked.amount, current.balance - current.held));
      account = { balance: current.balance - charge, held: current.held };
      await tx.query(
        "UPDATE credit_accounts SET balance = $2, updated_at = now() WHERE user_id = $1",
        [locked.user_id, account.balance],
      );
      const late = await tx.query<HoldRow>(
        `UPDATE credit_holds SET status = 'settled', charged = $2, closed_at = now()
         WHERE id = $1 RETURNING ${HOLD_COLUMNS}`,
        [locked.id, charge],
      );
      hold = late.rows[0] as HoldRow;
    }
    if (hold.charged > 0) {
      await tx.query(
        `INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, description)
         VALUES ($1, $2, $3, 'usage', $4, $5)`,
        [hold.user_id, -hold.charged, account.balance, hold.reference, usage ? usage.model : ""],
      );
    }
    if (usage) {
      await insertUsage(tx, {
        ...usage,
        userId: hold.user_id,
        reference: hold.reference,
        credits: fromHundredths(hold.charged),
      });
    }
    const change: CreditChange = {
      userId: hold.user_id,
      balance: fromHundredths(account.balance),
      available: fromHundredths(account.balance - account.held),
      delta: fromHundredths(-hold.charged),
      reason: "usage",
    };
    return {
      settlement: { hold: toHold(hold), charged: fromHundredths(hold.charged), applied: true },
      change,
    };
  });
  if (change) deps.publish([change]);
  return settlement;
}

/** Locks the hold first, then (by the caller) its account: the same order everywhere. */
export async function lockHold(tx: Queryable, holdId: string): Promise<HoldRow> {
  const { rows } = await tx.query<HoldRow>(
    `SELECT ${HOLD_COLUMNS} FROM credit_holds WHERE id = $1 FOR UPDATE`,
    [holdId],
  );
  const hold = rows[0];
  if (!hold) throw new AppError(ERROR_CODES.notFound, 404, "This credit hold does not exist.");
  return hold;
}

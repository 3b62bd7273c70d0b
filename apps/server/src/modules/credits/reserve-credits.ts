import { creditsOf, ERROR_CODES, type Hundredths } from "@cohort/contracts";
import { isUniqueViolation, prepared } from "../../db/client";
import { AppError } from "../../platform/errors";
import { fromHundredths } from "./amounts";
import type { ComposedStatement } from "./composed-statement";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { insufficientCredits } from "./insufficient-credits";

/**
 * The reserve's parts, one statement committed on its own: the conditional update takes the
 * amount from the available balance under the account's row lock (each concurrent reserve
 * re-checks the balance the one before left, so it can never be overdrawn) and the hold row
 * is inserted only when it did. A statement is atomic, so when the insert then meets the same reference
 * (a retry) the whole statement fails with a unique violation and the account is untouched.
 * The row lock is held for one statement and its commit instead of a four-statement
 * transaction, which is what lets parallel holds on one user's row follow each other fast.
 * A composed statement's own parts read `hold` (one row, or none when nothing was held), so
 * what they write is written exactly when the hold is.
 */
export const RESERVE_CTES = `
  account AS (
    UPDATE credit_accounts SET held = held + $3, updated_at = now()
    WHERE user_id = $1 AND balance - held >= $3
    RETURNING balance, held
  ), hold AS (
    INSERT INTO credit_holds (user_id, reference, amount, expires_at)
    SELECT $1, $2, $3, now() + make_interval(secs => $4) FROM account
    RETURNING ${HOLD_COLUMNS}
  )`;
/** How many parameters `RESERVE_CTES` takes ($1–$4); a composed statement's own come after. */
export const RESERVE_PARAMS = 4;
/** What a reserve statement selects, `FROM hold, account`. */
export const RESERVED_RESULT = "hold.*, account.balance, account.held";

const RESERVE = prepared(`WITH ${RESERVE_CTES} SELECT ${RESERVED_RESULT} FROM hold, account`);

interface ReservedRow extends HoldRow {
  balance: number;
  held: number;
}

/** A hold's reference is taken: the same reserve again (a retry). */
function isReferenceTaken(error: unknown): boolean {
  return (
    isUniqueViolation(error) &&
    (error as { constraint?: unknown }).constraint === "credit_holds_reference_key"
  );
}

/**
 * Holds `amount` of the user's available balance (balance − open holds) for a call that is
 * about to run; 402 `insufficient_credits` when it is not there. The reference makes it
 * idempotent: reserving again with the same reference returns the first hold unchanged.
 * With `composed`, that statement (`RESERVE_CTES` and the caller's parts) is run instead, and
 * `composed` is the row it selected (null when it wrote nothing: a retry's existing hold). Any
 * other failure of the caller's parts (their own unique keys) fails the whole statement and
 * is thrown as it is: nothing was held.
 */
export async function reserveCredits<R extends object = object>(
  deps: CreditsDeps,
  userId: string,
  amount: Hundredths,
  reference: string,
  composed?: ComposedStatement,
): Promise<Hold & { composed: R | null }> {
  if (amount <= 0) throw new RangeError("a hold reserves at least 0.01 credits");
  let reserved: (ReservedRow & R) | undefined;
  try {
    const own = [userId, reference, amount, deps.holdTtlMs / 1000];
    const { rows } = await deps.db.query<ReservedRow & R>(
      composed ? composed.text : RESERVE,
      composed ? [...own, ...composed.params] : own,
    );
    reserved = rows[0];
  } catch (error) {
    if (!isReferenceTaken(error)) throw error;
  }
  if (!reserved) {
    return { ...(await existingOrShort(deps, userId, amount, reference)), composed: null };
  }
  const change: CreditChange = {
    userId,
    balance: fromHundredths(reserved.balance),
    available: fromHundredths(reserved.balance - reserved.held),
    delta: 0,
    reason: "hold",
  };
  deps.publish([change]);
  return { ...toHold(reserved), composed: composed ? reserved : null };
}

/** Nothing was held: either the reference was reserved before (a retry) or credits are short. */
async function existingOrShort(
  deps: CreditsDeps,
  userId: string,
  amount: Hundredths,
  reference: string,
): Promise<Hold> {
  const { rows } = await deps.db.query<HoldRow>(
    `SELECT ${HOLD_COLUMNS} FROM credit_holds WHERE reference = $1`,
    [reference],
  );
  const existing = rows[0];
  if (existing) {
    if (existing.user_id !== userId) {
      throw new AppError(ERROR_CODES.conflict, 409, "This hold reference is already in use.");
    }
    return toHold(existing);
  }
  const current = await deps.db.query<{ available: number }>(
    "SELECT balance - held AS available FROM credit_accounts WHERE user_id = $1",
    [userId],
  );
  throw insufficientCredits(creditsOf(amount), fromHundredths(current.rows[0]?.available ?? 0));
}

import { creditsOf, ERROR_CODES, type Hundredths, hundredths } from "@cohort/contracts";
import { isUniqueViolation, prepared } from "../../db/client";
import { AppError } from "../../platform/errors";
import { fromHundredths } from "./amounts";
import type { ComposedStatement } from "./composed-statement";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { insufficientCredits } from "./insufficient-credits";
import { lockMemberCap, memberCapReached, memberUseThisMonth } from "./member-cap";
import type { Payer } from "./payer";

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
 * Holds `amount` of the payer's available balance (balance − open holds) for a call that is
 * about to run; 402 `insufficient_credits` when it is not there. The reference makes it
 * idempotent: reserving again with the same reference returns the first hold unchanged.
 * With `composed`, that statement (`RESERVE_CTES` and the caller's parts) is run instead, and
 * `composed` is the row it selected (null when it wrote nothing: a retry's existing hold). Any
 * other failure of the caller's parts (their own unique keys) fails the whole statement and
 * is thrown as it is: nothing was held. A personal payer's hold is that one statement; a team
 * member's goes through the member's cap first (`reservePooled`).
 */
export async function reserveCredits<R extends object = object>(
  deps: CreditsDeps,
  payer: Payer,
  amount: Hundredths,
  reference: string,
  composed?: ComposedStatement,
): Promise<Hold & { composed: R | null }> {
  if (amount <= 0) throw new RangeError("a hold reserves at least 0.01 credits");
  const userId = payer.accountId;
  let reserved: (ReservedRow & R) | undefined;
  try {
    const own = [userId, reference, amount, deps.holdTtlMs / 1000];
    const params = composed ? [...own, ...composed.params] : own;
    const text = composed ? composed.text : RESERVE;
    if (payer.memberId === null) {
      const { rows } = await deps.db.query<ReservedRow & R>(text, params);
      reserved = rows[0];
    } else {
      reserved = await reservePooled<ReservedRow & R>(
        deps,
        payer.memberId,
        { text, params },
        {
          userId,
          amount,
          reference,
        },
      );
    }
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
    ...(payer.memberId === null ? {} : { workspace_id: userId }),
  };
  deps.publish([change]);
  return { ...toHold(reserved), composed: composed ? reserved : null };
}

/**
 * A team member's hold on the pool, in one transaction: lock the member's cap row, check the
 * member's month against the cap, run the reserve statement (which locks the pool's row: the
 * lock order is always member → account), and name the member on the new hold. Undefined
 * when nothing was held (the pool is short, or a retry whose hold exists); 402
 * `member_cap_reached` when the cap cannot cover it.
 */
async function reservePooled<Row extends HoldRow>(
  deps: CreditsDeps,
  memberId: string,
  statement: ComposedStatement,
  hold: { userId: string; amount: Hundredths; reference: string },
): Promise<Row | undefined> {
  return deps.db.transaction(async (tx) => {
    const cap = await lockMemberCap(tx, hold.userId, memberId);
    if (cap !== null) {
      const use = await memberUseThisMonth(tx, hold.userId, memberId);
      const used = hundredths(use.held + use.spent);
      if (used + hold.amount > cap) {
        const retry = await tx.query("SELECT 1 FROM credit_holds WHERE reference = $1", [
          hold.reference,
        ]);
        if (retry.rows.length > 0) return undefined;
        throw memberCapReached(cap, used, hold.amount);
      }
    }
    const { rows } = await tx.query<Row>(statement.text, [...statement.params]);
    const row = rows[0];
    if (!row) return undefined;
    await tx.query("UPDATE credit_holds SET member_id = $2 WHERE id = $1", [row.id, memberId]);
    return { ...row, member_id: memberId };
  });
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

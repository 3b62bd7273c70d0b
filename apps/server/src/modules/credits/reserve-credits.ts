import {
  creditsOf,
  ERROR_CODES,
  type Hundredths,
  hundredths,
  SPENDING_ERROR_CODES,
  type TCreditLimitKind,
  WORKSPACE_CREDIT_ERROR_CODES,
} from "@cohort/contracts";
import { isUniqueViolation, prepared, type Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { ComposedStatement } from "./composed-statement";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { creditRefusal } from "./insufficient-credits";
import { lockMemberCap, memberUseThisMonth } from "./member-cap";
import type { Payer } from "./payer";
import { lockSpendingLimit, personalUseThisMonth } from "./spending-limit";

/**
 * The reserve's parts, one statement committed on its own: the conditional update takes up to
 * the amount from the available balance under the account's row lock — `LEAST($3, balance −
 * held)`, and only when at least the minimum `$5` is there (each concurrent reserve re-checks
 * the balance the one before left, so it can never be overdrawn) — and the hold row is
 * inserted with what was granted (`last_grant`, the same expression: SET reads the row as it
 * was), only when it was. A statement is atomic, so when the insert then meets the same
 * reference (a retry) the whole statement fails with a unique violation and the account is
 * untouched. `$6` is the user whose personal spending limit would apply: when they have one,
 * nothing is held here and the locked path (`reserveLimited`) takes over; NULL there.
 * The row lock is held for one statement and its commit instead of a four-statement
 * transaction, which is what lets parallel holds on one user's row follow each other fast.
 * A composed statement's own parts read `hold` (one row, or none when nothing was held), so
 * what they write is written exactly when the hold is.
 */
export const RESERVE_CTES = `
  account AS (
    UPDATE credit_accounts SET held = held + LEAST($3, balance - held),
      last_grant = LEAST($3, balance - held), updated_at = now()
    WHERE user_id = $1 AND balance - held >= $5
      AND NOT EXISTS (
        SELECT 1 FROM credit_spending_limits WHERE user_id = $6 AND monthly_limit IS NOT NULL)
    RETURNING balance, held, last_grant
  ), hold AS (
    INSERT INTO credit_holds (user_id, reference, amount, expires_at)
    SELECT $1, $2, account.last_grant, now() + make_interval(secs => $4) FROM account
    RETURNING ${HOLD_COLUMNS}
  )`;
/** How many parameters `RESERVE_CTES` takes ($1–$6); a composed statement's own come after. */
export const RESERVE_PARAMS = 6;
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

/** The user whose personal spending limit counts a payer's calls. */
const spenderOf = (payer: Payer) => payer.memberId ?? payer.accountId;

/**
 * Holds up to `amount` of the payer's available balance (balance − open holds) for a call
 * that is about to run — never more than the balance, the member's cap and the user's
 * personal limit leave, and never less than `minimum` (default: all of `amount`); 402 when
 * not even the minimum is there, naming the limit (decision 053). The hold's `amount` is what
 * was granted. The reference makes it idempotent: reserving again with the same reference
 * returns the first hold unchanged. With `composed`, that statement (`RESERVE_CTES` and the
 * caller's parts) is run instead, and `composed` is the row it selected (null when it wrote
 * nothing: a retry's existing hold). Any other failure of the caller's parts (their own
 * unique keys) fails the whole statement and is thrown as it is: nothing was held. A personal
 * payer without a personal limit holds in that one statement; a team member's hold, or a
 * limited user's, goes through their locks first (`reserveLimited`).
 */
export async function reserveCredits<R extends object = object>(
  deps: CreditsDeps,
  payer: Payer,
  amount: Hundredths,
  reference: string,
  composed?: ComposedStatement,
  minimum: Hundredths = amount,
): Promise<Hold & { composed: R | null }> {
  if (amount <= 0 || minimum <= 0) throw new RangeError("a hold reserves at least 0.01 credits");
  const least = hundredths(Math.min(minimum, amount));
  const userId = payer.accountId;
  const text = composed ? composed.text : RESERVE;
  const paramsWith = (wanted: Hundredths, limitedUser: string | null) => {
    const own = [userId, reference, wanted, deps.holdTtlMs / 1000, least, limitedUser];
    return composed ? [...own, ...composed.params] : own;
  };
  let reserved: (ReservedRow & R) | undefined;
  // A refusal must tell the truth: when what was short is there again by the time it is
  // read (other calls' holds were settled meanwhile), the hold is tried again; the refusal
  // then names what was there when it was decided.
  let room: number | null = null;
  for (let attempt = 1; ; attempt++) {
    reserved = await reserveOnce<R>(deps, payer, amount, least, reference, text, paramsWith);
    if (reserved || attempt === RESERVE_ATTEMPTS) break;
    const existing = await deps.db.query("SELECT 1 FROM credit_holds WHERE reference = $1", [
      reference,
    ]);
    if (existing.rows.length > 0) break;
    room = await walletRoom(deps.db, payer);
    if (room < least) break;
  }
  if (!reserved) {
    return { ...(await existingOrShort(deps, payer, least, reference, room)), composed: null };
  }
  publishHeld(deps, payer, reserved);
  return { ...toHold(reserved), composed: composed ? reserved : null };
}

/** How often a hold is tried when the wallet had room again by the time it was read. */
const RESERVE_ATTEMPTS = 20;

async function walletRoom(db: Queryable, payer: Payer): Promise<number> {
  const { rows } = await db.query<{ available: number }>(
    "SELECT balance - held AS available FROM credit_accounts WHERE user_id = $1",
    [payer.accountId],
  );
  return Number(rows[0]?.available ?? 0);
}

async function reserveOnce<R extends object>(
  deps: CreditsDeps,
  payer: Payer,
  amount: Hundredths,
  least: Hundredths,
  reference: string,
  text: string,
  paramsWith: LimitedStatement["paramsWith"],
): Promise<(ReservedRow & R) | undefined> {
  const userId = payer.accountId;
  let reserved: (ReservedRow & R) | undefined;
  try {
    if (payer.memberId === null) {
      const { rows } = await deps.db.query<ReservedRow & R>(text, paramsWith(amount, userId));
      reserved = rows[0];
      if (!reserved && (await hasSpendingLimit(deps.db, userId))) {
        reserved = await reserveLimited<ReservedRow & R>(deps, payer, amount, least, reference, {
          text,
          paramsWith,
        });
      }
    } else {
      reserved = await reserveLimited<ReservedRow & R>(deps, payer, amount, least, reference, {
        text,
        paramsWith,
      });
    }
  } catch (error) {
    if (!isReferenceTaken(error)) throw error;
  }
  return reserved;
}

function publishHeld(deps: CreditsDeps, payer: Payer, account: { balance: number; held: number }) {
  const change: CreditChange = {
    userId: payer.accountId,
    balance: creditsOf(hundredths(account.balance)),
    available: creditsOf(hundredths(account.balance - account.held)),
    delta: 0,
    reason: "hold",
    ...(payer.memberId === null ? {} : { workspace_id: payer.accountId }),
  };
  deps.publish([change]);
}

async function hasSpendingLimit(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query(
    "SELECT 1 FROM credit_spending_limits WHERE user_id = $1 AND monthly_limit IS NOT NULL",
    [userId],
  );
  return rows.length > 0;
}

interface LimitedStatement {
  text: string;
  paramsWith(wanted: Hundredths, limitedUser: string | null): unknown[];
}

/** What the member's cap and the user's personal limit leave, read under their locks. */
async function lockedRoom(
  tx: Queryable,
  payer: Payer,
): Promise<{ kind: TCreditLimitKind; left: Hundredths } | null> {
  // Lock order: the user's limit → the member's cap → (the statement) the account.
  const spender = spenderOf(payer);
  const limit = await lockSpendingLimit(tx, spender);
  const cap =
    payer.memberId === null ? null : await lockMemberCap(tx, payer.accountId, payer.memberId);
  let room: { kind: TCreditLimitKind; left: Hundredths } | null = null;
  if (limit !== null) {
    const use = await personalUseThisMonth(tx, spender);
    room = { kind: "personal_limit", left: hundredths(Math.max(0, limit - use.held - use.spent)) };
  }
  if (cap !== null && payer.memberId !== null) {
    const use = await memberUseThisMonth(tx, payer.accountId, payer.memberId);
    const left = hundredths(Math.max(0, cap - use.held - use.spent));
    if (!room || left < room.left) room = { kind: "member_cap", left };
  }
  return room;
}

/**
 * A hold under the member's cap and the user's personal limit, in one transaction: lock the
 * limit's and the cap's rows, read the month's use, hold no more than they leave (the reserve
 * statement then locks the account's row: the lock order is always limit → member →
 * account), and name the member on the new hold. Undefined when nothing was held (the wallet
 * is short, or a retry whose hold exists); 402 `member_cap_reached` or
 * `personal_limit_reached` when the minimum does not fit under them.
 */
async function reserveLimited<Row extends HoldRow>(
  deps: CreditsDeps,
  payer: Payer,
  amount: Hundredths,
  minimum: Hundredths,
  reference: string,
  statement: LimitedStatement,
): Promise<Row | undefined> {
  return deps.db.transaction(async (tx) => {
    const room = await lockedRoom(tx, payer);
    if (room && room.left < minimum) {
      const retry = await tx.query("SELECT 1 FROM credit_holds WHERE reference = $1", [reference]);
      if (retry.rows.length > 0) return undefined;
      throw limitRefusal(payer, room.kind, room.left, minimum);
    }
    const wanted = room ? hundredths(Math.min(amount, room.left)) : amount;
    const { rows } = await tx.query<Row>(statement.text, statement.paramsWith(wanted, null));
    const row = rows[0];
    if (!row || payer.memberId === null) return row;
    await tx.query("UPDATE credit_holds SET member_id = $2 WHERE id = $1", [
      row.id,
      payer.memberId,
    ]);
    return { ...row, member_id: payer.memberId };
  });
}

/** 402 for a limit that cannot cover `required` (what the smallest step needs). */
export function limitRefusal(
  payer: Payer,
  kind: TCreditLimitKind,
  available: Hundredths,
  required: Hundredths,
): AppError {
  const code =
    kind === "member_cap"
      ? WORKSPACE_CREDIT_ERROR_CODES.memberCapReached
      : kind === "personal_limit"
        ? SPENDING_ERROR_CODES.personalLimitReached
        : ERROR_CODES.insufficientCredits;
  return creditRefusal(code, {
    limit: kind,
    available: creditsOf(available),
    required: creditsOf(required),
    ...(payer.memberId === null ? {} : { workspace_id: payer.accountId }),
  });
}

/** Nothing was held: either the reference was reserved before (a retry) or credits are short. */
async function existingOrShort(
  deps: CreditsDeps,
  payer: Payer,
  minimum: Hundredths,
  reference: string,
  room: number | null,
): Promise<Hold> {
  const { rows } = await deps.db.query<HoldRow>(
    `SELECT ${HOLD_COLUMNS} FROM credit_holds WHERE reference = $1`,
    [reference],
  );
  const existing = rows[0];
  if (existing) {
    if (existing.user_id !== payer.accountId) {
      throw new AppError(ERROR_CODES.conflict, 409, "This hold reference is already in use.");
    }
    return toHold(existing);
  }
  const available = hundredths(Math.max(0, room ?? (await walletRoom(deps.db, payer))));
  throw limitRefusal(
    payer,
    payer.memberId === null ? "balance" : "workspace_pool",
    available,
    minimum,
  );
}

// ---------------------------------------------------------------------------------------
// Extending an open hold as its call's answer grows (decision 053).
// ---------------------------------------------------------------------------------------

/**
 * One statement: lock the open hold (a settle, a release or the sweeper waits, then finds
 * the new amount), take up to `$2` from the account's available balance — at least `$3`, as
 * the reserve does — and add what was granted to the hold, pushing its expiry on. `$4` is
 * the limited user, as in the reserve (NULL on the locked path).
 */
const EXTEND = prepared(`
  WITH open AS (
    SELECT id, user_id FROM credit_holds WHERE id = $1 AND status = 'open' FOR UPDATE
  ), account AS (
    UPDATE credit_accounts SET held = credit_accounts.held
        + LEAST($2, credit_accounts.balance - credit_accounts.held),
      last_grant = LEAST($2, credit_accounts.balance - credit_accounts.held), updated_at = now()
    FROM open
    WHERE credit_accounts.user_id = open.user_id
      AND credit_accounts.balance - credit_accounts.held >= $3
      AND NOT EXISTS (
        SELECT 1 FROM credit_spending_limits WHERE user_id = $4 AND monthly_limit IS NOT NULL)
    RETURNING credit_accounts.balance, credit_accounts.held, credit_accounts.last_grant
  ), hold AS (
    UPDATE credit_holds SET amount = credit_holds.amount + account.last_grant,
      expires_at = now() + make_interval(secs => $5)
    FROM account WHERE credit_holds.id = $1
    RETURNING credit_holds.amount
  )
  SELECT account.balance, account.held, account.last_grant AS granted, hold.amount
  FROM account, hold`);

interface ExtendedRow {
  balance: number;
  held: number;
  granted: number;
  amount: number;
}

/** What an extension got: the hold's new amount, or the limit that refused it. */
export type Extension =
  | { ok: true; granted: Hundredths; amount: Hundredths }
  | { ok: false; limit: TCreditLimitKind };

/**
 * Adds up to `amount` to an open hold (at least 0.01, else nothing), within what the
 * balance, the member's cap and the user's personal limit leave. Never serialises anything
 * but this hold's own row and the rows its reserve locked too.
 */
export async function extendHold(
  deps: CreditsDeps,
  payer: Payer,
  holdId: string,
  amount: Hundredths,
): Promise<Extension> {
  if (amount <= 0) throw new RangeError("an extension adds at least 0.01 credits");
  const one = hundredths(1);
  const run = async (db: Queryable, wanted: Hundredths, limitedUser: string | null) => {
    const { rows } = await db.query<ExtendedRow>(EXTEND, [
      holdId,
      wanted,
      one,
      limitedUser,
      deps.holdTtlMs / 1000,
    ]);
    return rows[0];
  };
  let extended: ExtendedRow | undefined;
  let refusedBy: TCreditLimitKind | null = null;
  if (payer.memberId === null) {
    extended = await run(deps.db, amount, payer.accountId);
  }
  if (
    !extended &&
    (payer.memberId !== null || (await hasSpendingLimit(deps.db, payer.accountId)))
  ) {
    extended = await deps.db.transaction(async (tx) => {
      // Lock order: the hold → the user's limit → the member's cap → the account.
      const open = await tx.query(
        "SELECT 1 FROM credit_holds WHERE id = $1 AND status = 'open' FOR UPDATE",
        [holdId],
      );
      if (open.rows.length === 0) return undefined;
      const room = await lockedRoom(tx, payer);
      if (room && room.left < one) {
        refusedBy = room.kind;
        return undefined;
      }
      return run(tx, room ? hundredths(Math.min(amount, room.left)) : amount, null);
    });
  }
  if (!extended) {
    return {
      ok: false,
      limit: refusedBy ?? (payer.memberId === null ? "balance" : "workspace_pool"),
    };
  }
  publishHeld(deps, payer, extended);
  return {
    ok: true,
    granted: hundredths(Number(extended.granted)),
    amount: hundredths(Number(extended.amount)),
  };
}

import { creditsOf, ERROR_CODES, type Hundredths, hundredths } from "@cohort/contracts";
import { prepared, type Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import type { ComposedStatement } from "./composed-statement";
import type { CreditChange, CreditsDeps } from "./credits-deps";
import { HOLD_COLUMNS, type Hold, type HoldRow, toHold } from "./hold-row";
import { lockMemberCap, memberUseThisMonth } from "./member-cap";
import { insertUsage, type UsageInput } from "./record-usage";

export interface Settlement {
  hold: Hold;
  /** Taken from the balance by this call; 0 when the hold had been closed before. */
  charged: Hundredths;
  /** false when the hold was already settled or released: nothing changed. */
  applied: boolean;
  /** The user's balance after the settlement, and what is left of it for new holds. */
  balance: Hundredths;
  available: Hundredths;
}

/** The call's usage row, written with its charge: both or neither. */
export type SettlementUsage = Omit<UsageInput, "userId" | "credits" | "reference">;

/**
 * Charges the actual cost of a call against its hold — never more than was held — and
 * releases the rest, atomically. Settling a hold twice changes nothing the second time;
 * settling a released hold charges nothing. A hold the sweeper expired while its call was
 * still running is charged what the available balance still covers, so a slow call is not
 * free and the balance still never goes below zero.
 */
export async function settleHold(
  deps: CreditsDeps,
  holdId: string,
  actual: Hundredths,
): Promise<Settlement> {
  return settle(deps, holdId, actual, null);
}

/**
 * settleHold and the call's usage row in the same statement: both or neither. With
 * `composed` (`SETTLE_OPEN_CTES` and the caller's parts) that statement settles an open hold,
 * and `composed` is the row it selected; it is null when the hold was not open and the rare
 * path settled it (the caller's parts did not run: the caller writes its rows itself).
 */
export async function settleHoldWithUsage<R extends object = object>(
  deps: CreditsDeps,
  holdId: string,
  actual: Hundredths,
  usage: SettlementUsage,
  composed?: ComposedStatement,
): Promise<Settlement & { composed: R | null }> {
  return settle<R>(deps, holdId, actual, usage, composed);
}

/**
 * The common case — an open hold — as one statement committed on its own: close the hold
 * (its row lock makes a second settle or a release find it closed), move the account, append
 * the ledger row and, with `$4`, the usage row. Every part reads the one before, so they run
 * in order, and a statement is atomic. balance − charged ≥ held − amount ≥ 0, so it cannot
 * overdraw. Zero rows means the hold was not open: the rare cases below handle that. A
 * composed statement's own parts read `hold` (no row when it was not open), so what they
 * write is written exactly when the open hold is settled, in the same statement.
 */
export const SETTLE_OPEN_CTES = `
  hold AS (
    UPDATE credit_holds SET status = 'settled', charged = LEAST($2::bigint, amount),
      closed_at = now()
    WHERE id = $1 AND status = 'open'
    RETURNING ${HOLD_COLUMNS}
  ), account AS (
    UPDATE credit_accounts SET balance = credit_accounts.balance - hold.charged,
      held = credit_accounts.held - hold.amount, updated_at = now()
    FROM hold WHERE credit_accounts.user_id = hold.user_id
    RETURNING credit_accounts.balance, credit_accounts.held
  ), ledger AS (
    INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, description)
    SELECT hold.user_id, -hold.charged, account.balance, 'usage', hold.reference, $3
    FROM hold, account WHERE hold.charged > 0
  ), usage AS (
    INSERT INTO usage_events
      (user_id, reference, model, provider, input_tokens, output_tokens, credits, cost_usd)
    SELECT hold.user_id, hold.reference, $3, $4, $5, $6, hold.charged,
      COALESCE($7::numeric, hold.charged / 10000.0)
    FROM hold WHERE $4::text IS NOT NULL
    ON CONFLICT (reference) DO NOTHING
  )`;
/** How many parameters `SETTLE_OPEN_CTES` takes ($1–$7); a composed statement's come after. */
export const SETTLE_PARAMS = 7;
/** What a settle statement selects, `FROM hold, account`. */
export const SETTLED_RESULT = "hold.*, account.balance, account.held";

const SETTLE_OPEN = prepared(
  `WITH ${SETTLE_OPEN_CTES} SELECT ${SETTLED_RESULT} FROM hold, account`,
);

interface SettledRow extends HoldRow {
  balance: number;
  held: number;
}

async function settle<R extends object>(
  deps: CreditsDeps,
  holdId: string,
  actual: Hundredths,
  usage: SettlementUsage | null,
  composed?: ComposedStatement,
): Promise<Settlement & { composed: R | null }> {
  if (actual < 0) throw new RangeError("a call costs 0 credits or more");
  const own = [
    holdId,
    actual,
    usage ? usage.model : "",
    usage ? usage.provider : null,
    usage ? Math.max(0, Math.round(usage.inputTokens)) : 0,
    usage ? Math.max(0, Math.round(usage.outputTokens)) : 0,
    usage?.costUsd === undefined ? null : Math.max(0, usage.costUsd).toFixed(6),
  ];
  const { rows } = await deps.db.query<SettledRow & R>(
    composed ? composed.text : SETTLE_OPEN,
    composed ? [...own, ...composed.params] : own,
  );
  const settled = rows[0];
  const { hold, account, applied }: SettleOutcome = settled
    ? { hold: settled, account: settled, applied: true }
    : await settleClosed(deps, holdId, actual, usage);
  const charged = applied ? hundredths(hold.charged) : hundredths(0);
  const settlement = {
    hold: toHold(hold),
    charged,
    applied,
    balance: hundredths(account.balance),
    available: hundredths(account.balance - account.held),
    composed: composed && settled ? settled : null,
  };
  if (settlement.applied) {
    deps.publish([
      {
        userId: hold.user_id,
        balance: creditsOf(hundredths(account.balance)),
        available: creditsOf(hundredths(account.balance - account.held)),
        delta: creditsOf(hundredths(-charged)),
        reason: "usage",
        ...(hold.member_id === null ? {} : { workspace_id: hold.user_id }),
      } satisfies CreditChange,
    ]);
  }
  return settlement;
}

interface SettleOutcome {
  hold: HoldRow;
  account: { balance: number; held: number };
  applied: boolean;
}

/**
 * The hold was not open: already settled or released (nothing changes), missing (404), or
 * expired by the sweeper while its call ran (charged what the available balance covers).
 * Rare, so it keeps the plain locking transaction.
 */
async function settleClosed(
  deps: CreditsDeps,
  holdId: string,
  actual: Hundredths,
  usage: SettlementUsage | null,
): Promise<SettleOutcome> {
  return deps.db.transaction(async (tx) => {
    const locked = await lockHold(tx, holdId);
    // A team member's late charge is capped by what the member's cap still allows too; the
    // member's row is locked before the account's, as every team reserve does.
    const capLeft =
      locked.status === "expired" && locked.member_id !== null
        ? await memberCapLeft(tx, locked.user_id, locked.member_id)
        : null;
    const { rows } = await tx.query<{ balance: number; held: number }>(
      "SELECT balance, held FROM credit_accounts WHERE user_id = $1 FOR UPDATE",
      [locked.user_id],
    );
    const current = rows[0] ?? { balance: 0, held: 0 };
    if (locked.status !== "expired") return { hold: locked, account: current, applied: false };
    const charge = Math.max(
      0,
      Math.min(actual, locked.amount, current.balance - current.held, capLeft ?? Infinity),
    );
    const account = { balance: current.balance - charge, held: current.held };
    await tx.query(
      "UPDATE credit_accounts SET balance = $2, updated_at = now() WHERE user_id = $1",
      [locked.user_id, account.balance],
    );
    const late = await tx.query<HoldRow>(
      `UPDATE credit_holds SET status = 'settled', charged = $2, closed_at = now()
       WHERE id = $1 RETURNING ${HOLD_COLUMNS}`,
      [locked.id, charge],
    );
    const hold = late.rows[0] as HoldRow;
    if (charge > 0) {
      await tx.query(
        `INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, description)
         VALUES ($1, $2, $3, 'usage', $4, $5)`,
        [hold.user_id, -charge, account.balance, hold.reference, usage ? usage.model : ""],
      );
    }
    if (usage) {
      await insertUsage(tx, {
        ...usage,
        userId: hold.user_id,
        reference: hold.reference,
        credits: creditsOf(hundredths(charge)),
      });
    }
    return { hold, account, applied: true };
  });
}

/** What the member's cap still allows this month (null: no cap), under the member's lock. */
async function memberCapLeft(
  tx: Queryable,
  accountId: string,
  memberId: string,
): Promise<number | null> {
  const cap = await lockMemberCap(tx, accountId, memberId);
  if (cap === null) return null;
  const use = await memberUseThisMonth(tx, accountId, memberId);
  return cap - use.held - use.spent;
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

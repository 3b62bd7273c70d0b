import type { TLedgerReason } from "@cohort/contracts";
import { creditsOf, hundredths, hundredthsOf } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import type { CreditChange } from "./credits-deps";
import { insufficientCredits } from "./insufficient-credits";

export interface LedgerEntryInput {
  userId: string;
  /** Signed amount in credits (at most two decimals); never 0. */
  credits: number;
  reason: TLedgerReason;
  /** With the reason, unique: the same grant or charge is never applied twice. */
  reference: string;
  description?: string;
}

/**
 * Appends one ledger row and moves the cached balance with it, in the caller's transaction
 * (the caller publishes the change after commit). Returns null when (reason, reference) was
 * applied before. A debit that would leave less than the credits on hold is refused with 402.
 */
export async function applyLedgerEntry(
  tx: Queryable,
  entry: LedgerEntryInput,
): Promise<CreditChange | null> {
  const delta = hundredthsOf(entry.credits);
  if (delta === 0) throw new RangeError("a ledger entry moves at least 0.01 credits");
  // The upsert creates the account on first use and, either way, locks its row until commit,
  // so every change to one user's balance happens one after another.
  // `pooled`: the account is a team workspace's, whose changes reach all its members.
  const { rows } = await tx.query<{ balance: number; held: number; pooled: boolean | null }>(
    `INSERT INTO credit_accounts (user_id) VALUES ($1)
     ON CONFLICT (user_id) DO UPDATE SET updated_at = now()
     RETURNING balance, held, (SELECT kind = 'team' FROM workspaces WHERE id = $1) AS pooled`,
    [entry.userId],
  );
  const account = rows[0] as { balance: number; held: number; pooled: boolean | null };
  const next = account.balance + delta;
  if (next < account.held) {
    if (await wasApplied(tx, entry.reason, entry.reference)) return null;
    throw insufficientCredits(
      creditsOf(hundredths(-delta)),
      creditsOf(hundredths(account.balance - account.held)),
    );
  }
  const inserted = await tx.query(
    `INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, description)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (reason, reference) DO NOTHING
     RETURNING id`,
    [entry.userId, delta, next, entry.reason, entry.reference, entry.description ?? ""],
  );
  if (inserted.rowCount === 0) return null;
  await tx.query("UPDATE credit_accounts SET balance = $2, updated_at = now() WHERE user_id = $1", [
    entry.userId,
    next,
  ]);
  return {
    userId: entry.userId,
    balance: creditsOf(hundredths(next)),
    available: creditsOf(hundredths(next - account.held)),
    delta: creditsOf(hundredths(delta)),
    reason: entry.reason,
    ...(account.pooled ? { workspace_id: entry.userId } : {}),
  };
}

async function wasApplied(tx: Queryable, reason: string, reference: string): Promise<boolean> {
  // rows, not rowCount: PGlite reports no affected rows for a SELECT.
  const { rows } = await tx.query(
    "SELECT 1 FROM credit_ledger WHERE reason = $1 AND reference = $2",
    [reason, reference],
  );
  return rows.length > 0;
}

import type { TLedgerEntry } from "@cohort/contracts";
import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { type LedgerRow, toLedgerEntry } from "./list-ledger";

export type AccountLedgerEntry = TLedgerEntry;

export interface AccountUsageEvent {
  model: string;
  provider: string;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  cost_usd: number;
  created_at: string;
}

export interface AccountLedger {
  entries: AccountLedgerEntry[];
  usage: AccountUsageEvent[];
}

/**
 * A credit account's whole ledger and usage, oldest first, in credits: the "ledger" part of
 * "download my data" (the Billing page shows the same rows a page at a time).
 */
export async function listAccountLedger(db: Queryable, accountId: string): Promise<AccountLedger> {
  const [entries, usage] = await Promise.all([
    db.query<LedgerRow>(
      `SELECT id, delta, balance_after, reason, description, created_at FROM credit_ledger
       WHERE user_id = $1 ORDER BY id`,
      [accountId],
    ),
    db.query<{
      model: string;
      provider: string;
      input_tokens: number;
      output_tokens: number;
      credits: number;
      cost_usd: number | string;
      created_at: Date | string;
    }>(
      `SELECT model, provider, input_tokens, output_tokens, credits, cost_usd, created_at
       FROM usage_events WHERE user_id = $1 ORDER BY created_at, id`,
      [accountId],
    ),
  ]);
  return {
    entries: entries.rows.map(toLedgerEntry),
    usage: usage.rows.map((row) => ({
      model: row.model,
      provider: row.provider,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      credits: creditsOf(hundredths(row.credits)),
      cost_usd: Number(row.cost_usd),
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}

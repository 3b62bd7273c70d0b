import type { TLedgerEntry, TLedgerPage, TLedgerQuery, TLedgerReason } from "@cohort/contracts";
import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface LedgerRow {
  id: number | string;
  delta: number;
  balance_after: number;
  reason: TLedgerReason;
  description: string;
  created_at: Date | string;
}

/** One ledger row as the API gives it: amounts in credits, the time in ISO 8601. */
export function toLedgerEntry(row: LedgerRow): TLedgerEntry {
  return {
    id: String(row.id),
    delta: creditsOf(hundredths(row.delta)),
    balance_after: creditsOf(hundredths(row.balance_after)),
    reason: row.reason,
    description: row.description,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The user's ledger, newest first, a page at a time. */
export async function listLedger(
  db: Queryable,
  userId: string,
  query: TLedgerQuery,
): Promise<TLedgerPage> {
  const [page, total] = await Promise.all([
    db.query<LedgerRow>(
      `SELECT id, delta, balance_after, reason, description, created_at FROM credit_ledger
       WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [userId, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(
      "SELECT count(*)::int AS total FROM credit_ledger WHERE user_id = $1",
      [userId],
    ),
  ]);
  return {
    entries: page.rows.map(toLedgerEntry),
    total: total.rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Sum of every ledger row of the user, in credits: what the balance must always equal. */
export async function sumLedger(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ total: number }>(
    "SELECT COALESCE(sum(delta), 0)::bigint AS total FROM credit_ledger WHERE user_id = $1",
    [userId],
  );
  return creditsOf(hundredths(rows[0]?.total ?? 0));
}

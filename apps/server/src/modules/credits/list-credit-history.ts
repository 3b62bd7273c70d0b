import type { TCreditHistoryPage, TCreditHistoryRow, TLedgerQuery } from "@cohort/contracts";
import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { type LedgerRow, toLedgerEntry } from "./list-ledger";

/** The run a charged model call belongs to: its hold's reference is `run:<run id>:<call id>`. */
const RUN_OF = `CASE WHEN reason = 'usage' AND reference LIKE 'run:%:%'
  THEN split_part(reference, ':', 2) END`;

/**
 * The page's rows, newest first: one per run (keyed by its newest charge) and one per other
 * entry. The total is a window count over the rows, so pages count rows, not entries.
 */
const PAGE = `
  WITH keyed AS (
    SELECT id, ${RUN_OF} AS run_id FROM credit_ledger WHERE user_id = $1
  ), grouped AS (
    SELECT run_id, CASE WHEN run_id IS NULL THEN id END AS entry_id, max(id) AS newest
    FROM keyed GROUP BY run_id, CASE WHEN run_id IS NULL THEN id END
  )
  SELECT run_id, newest, count(*) OVER ()::int AS total FROM grouped
  ORDER BY newest DESC LIMIT $2 OFFSET $3`;

const COUNT = `SELECT count(DISTINCT COALESCE(${RUN_OF}, id::text))::int AS total
  FROM credit_ledger WHERE user_id = $1`;

/** The entries behind a page: the single entries by id, and every charge of its runs. */
const ENTRIES = `
  SELECT id, delta, balance_after, reason, description, created_at, ${RUN_OF} AS run_id
  FROM credit_ledger
  WHERE user_id = $1 AND (id = ANY($2::bigint[])
    OR (reason = 'usage' AND reference LIKE 'run:%:%'
      AND split_part(reference, ':', 2) = ANY($3::text[])))
  ORDER BY id`;

interface EntryRow extends LedgerRow {
  run_id: string | null;
}

/** Where a run was started; null when its session (and the run with it) was deleted. */
export type RunSessions = (
  runIds: readonly string[],
) => Promise<Map<string, { id: string; title: string }>>;

/**
 * The user's credit history a page at a time, newest first (decision 032): a run's charged
 * calls are one row with its session, every other ledger entry a row of its own.
 */
export async function listCreditHistory(
  db: Queryable,
  userId: string,
  query: TLedgerQuery,
  sessionsOf: RunSessions,
): Promise<TCreditHistoryPage> {
  const { rows: page } = await db.query<{
    run_id: string | null;
    newest: number | string;
    total: number;
  }>(PAGE, [userId, query.pageSize, (query.page - 1) * query.pageSize]);
  const total =
    page[0]?.total ?? (await db.query<{ total: number }>(COUNT, [userId])).rows[0]?.total ?? 0;
  const runIds = page.flatMap((row) => (row.run_id ? [row.run_id] : []));
  const entryIds = page.flatMap((row) => (row.run_id ? [] : [String(row.newest)]));
  const [entries, sessions] = await Promise.all([
    page.length === 0
      ? { rows: [] as EntryRow[] }
      : db.query<EntryRow>(ENTRIES, [userId, entryIds, runIds]),
    sessionsOf(runIds),
  ]);
  const byId = new Map<string, EntryRow>();
  const byRun = new Map<string, EntryRow[]>();
  for (const entry of entries.rows) {
    if (entry.run_id) byRun.set(entry.run_id, [...(byRun.get(entry.run_id) ?? []), entry]);
    else byId.set(String(entry.id), entry);
  }
  const rows = page.flatMap((row): TCreditHistoryRow[] => {
    if (row.run_id) {
      const calls = byRun.get(row.run_id) ?? [];
      const last = calls.at(-1);
      if (!last) return [];
      const session = sessions.get(row.run_id) ?? null;
      return [
        {
          kind: "run",
          id: `run:${row.run_id}`,
          run_id: row.run_id,
          session_id: session?.id ?? null,
          session_title: session?.title ?? null,
          delta: creditsOf(hundredths(calls.reduce((sum, call) => sum + Number(call.delta), 0))),
          balance_after: creditsOf(hundredths(Number(last.balance_after))),
          created_at: new Date(last.created_at).toISOString(),
          calls: calls.map((call) => ({
            id: String(call.id),
            delta: creditsOf(hundredths(Number(call.delta))),
            balance_after: creditsOf(hundredths(Number(call.balance_after))),
            model: call.description,
            created_at: new Date(call.created_at).toISOString(),
          })),
        },
      ];
    }
    const entry = byId.get(String(row.newest));
    if (!entry) return [];
    return [{ kind: "entry", ...toLedgerEntry(entry) }];
  });
  return { rows, total, page: query.page, pageSize: query.pageSize };
}

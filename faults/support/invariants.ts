import type { TBillingSummary, TLedgerPage } from "@cohort/contracts";
import { expect } from "vitest";
import { apiCall } from "../../test-support/api-client.mjs";
import { sessionDetail } from "./api";
import type { FaultCluster } from "./cluster";
import { waitFor } from "./wait";

/** A message a test sent, and the run it started. */
export interface SentMessage {
  userId: string;
  token: string;
  sessionId: string;
  runId: string;
  messageId: string;
  text: string;
}

export interface RunOutcome {
  id: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
}

const ACTIVE = "('queued', 'planning', 'running', 'reviewing', 'synthesizing')";

/**
 * Waits (bounded) until the private database has no active run and no open hold: runs ended,
 * and their follow-up work (memory proposals hold credits too) settled.
 */
export async function waitForQuiet(cluster: FaultCluster, ms = 30_000): Promise<void> {
  await waitFor(
    ms,
    "end of every run and hold",
    async () => {
      const [row] = await cluster.postgres.query<{ runs: number; holds: number }>(
        `SELECT (SELECT count(*)::int FROM runs WHERE status IN ${ACTIVE}) AS runs,
                (SELECT count(*)::int FROM credit_holds WHERE status = 'open') AS holds`,
      );
      return row && row.runs === 0 && row.holds === 0 ? true : undefined;
    },
    {
      intervalMs: 250,
      describe: async () =>
        JSON.stringify(
          await cluster.postgres.query(
            `SELECT id, status, instance_id, heartbeat_at FROM runs WHERE status IN ${ACTIVE}`,
          ),
        ),
    },
  );
}

/**
 * What must hold after any fault, checked with SQL on the private database and through the
 * API of a live instance:
 * - every user message sent is stored, in its session, with its text;
 * - every run ended: completed, or failed with an error code and message; cancelled only
 *   when the test stopped it (`mayCancel`); none is left active;
 * - for every account, the sum of its ledger is its balance, and nothing is held;
 * - no credit hold is open.
 * Returns every run's outcome, for the test's own checks.
 */
export async function checkInvariants(
  cluster: FaultCluster,
  sent: readonly SentMessage[],
  options: { mayCancel?: ReadonlySet<string> } = {},
): Promise<RunOutcome[]> {
  const db = cluster.postgres;
  const api = cluster.instances.find((i) => i.running);
  if (!api) throw new Error("no instance is running to ask");

  const stored = await db.query<{ id: string; session_id: string; role: string; content: string }>(
    "SELECT id, session_id, role, content FROM session_messages WHERE id = ANY($1::uuid[])",
    [sent.map((m) => m.messageId)],
  );
  expect(
    stored.map((m) => ({ id: m.id, session: m.session_id, role: m.role, content: m.content })),
  ).toEqual(
    expect.arrayContaining(
      sent.map((m) => ({ id: m.messageId, session: m.sessionId, role: "user", content: m.text })),
    ),
  );
  expect(stored).toHaveLength(sent.length);

  const runs = await db.query<RunOutcome>(
    "SELECT id, status, error_code, error_message FROM runs ORDER BY created_at",
  );
  const unexplained = runs.filter(
    (r) =>
      !(
        r.status === "completed" ||
        (r.status === "failed" && Boolean(r.error_code) && Boolean(r.error_message)) ||
        (r.status === "cancelled" && options.mayCancel?.has(r.id))
      ),
  );
  expect(unexplained, "runs not completed, nor failed with a reason").toEqual([]);
  expect(runs.map((r) => r.id)).toEqual(expect.arrayContaining(sent.map((m) => m.runId)));

  const accounts = await db.query<{
    account: string;
    balance: string;
    held: string;
    ledger: string;
  }>(
    `SELECT a.user_id AS account, a.balance::text, a.held::text,
            COALESCE(SUM(l.delta), 0)::text AS ledger
       FROM credit_accounts a LEFT JOIN credit_ledger l ON l.user_id = a.user_id
      GROUP BY a.user_id, a.balance, a.held
     HAVING a.balance <> COALESCE(SUM(l.delta), 0) OR a.held <> 0`,
  );
  expect(accounts, "accounts whose ledger does not add up to the balance, or that hold").toEqual(
    [],
  );
  const open = await db.query(
    "SELECT id, reference, amount FROM credit_holds WHERE status = 'open'",
  );
  expect(open, "open credit holds").toEqual([]);

  // The same through the API, as the user sees it: the message, the run's end, the balance.
  for (const m of sent) {
    const detail = await sessionDetail(api.url, m.token, m.sessionId);
    expect(detail.messages).toContainEqual(
      expect.objectContaining({ id: m.messageId, role: "user", content: m.text }),
    );
    const run = detail.runs.find((r) => r.id === m.runId);
    expect(run?.status).toBe(runs.find((r) => r.id === m.runId)?.status);
  }
  for (const userId of new Set(sent.map((m) => m.userId))) {
    const token = sent.find((m) => m.userId === userId)?.token ?? "";
    const summary = await apiCall<TBillingSummary>(api.url, "GET", "/api/billing/summary", {
      bearer: token,
    });
    expect(summary.held).toBe(0);
    expect(Math.round(summary.balance * 100)).toBe(await ledgerSum(api.url, token));
  }
  return runs;
}

/** The sum of the user's ledger in hundredths, read page by page through the API. */
async function ledgerSum(baseUrl: string, token: string): Promise<number> {
  let sum = 0;
  for (let page = 1; ; page++) {
    const ledger = await apiCall<TLedgerPage>(
      baseUrl,
      "GET",
      `/api/billing/ledger?page=${page}&pageSize=100`,
      { bearer: token },
    );
    sum += ledger.entries.reduce((total, e) => total + Math.round(e.delta * 100), 0);
    if (page * ledger.pageSize >= ledger.total) return sum;
  }
}

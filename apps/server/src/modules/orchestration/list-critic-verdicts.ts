import type { TExportedCriticVerdict, TRunEventOf } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/**
 * The Critic's verdicts of a session's runs, by run id, oldest first: for a run that ran
 * here, its `critic.verdict` events (the only place the per-draft scores are kept); for an
 * imported run, the verdicts its import brought (it has no events).
 */
export async function listCriticVerdicts(
  db: Queryable,
  sessionId: string,
): Promise<Map<string, TExportedCriticVerdict[]>> {
  const [events, imported] = await Promise.all([
    db.query<{ run_id: string; data: TRunEventOf<"critic.verdict"> }>(
      `SELECT run_id, data FROM run_events
       WHERE session_id = $1 AND type = 'critic.verdict' ORDER BY seq`,
      [sessionId],
    ),
    db.query<{ id: string; imported_verdicts: TExportedCriticVerdict[] | string }>(
      `SELECT id, imported_verdicts FROM runs
       WHERE session_id = $1 AND imported_verdicts IS NOT NULL`,
      [sessionId],
    ),
  ]);
  const byRun = new Map<string, TExportedCriticVerdict[]>();
  for (const { run_id, data } of events.rows) {
    byRun.set(run_id, [...(byRun.get(run_id) ?? []), verdictOf(data)]);
  }
  for (const row of imported.rows) {
    const verdicts =
      typeof row.imported_verdicts === "string"
        ? (JSON.parse(row.imported_verdicts) as TExportedCriticVerdict[])
        : row.imported_verdicts;
    byRun.set(row.id, verdicts);
  }
  return byRun;
}

function verdictOf(event: TRunEventOf<"critic.verdict">): TExportedCriticVerdict {
  return {
    call_id: event.call_id,
    score: event.score,
    bar: event.bar,
    verdict: event.verdict,
    draft_scores: event.draft_scores,
    revise_step_ids: event.revise_step_ids,
    ...(event.rerun_call_id === undefined ? {} : { rerun_call_id: event.rerun_call_id }),
    // What the score rests on travels with it into exports (decision 068).
    ...(event.evidence === undefined ? {} : { evidence: event.evidence }),
    ...(event.checks === undefined ? {} : { checks: event.checks }),
  };
}

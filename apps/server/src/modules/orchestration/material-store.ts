import type { TCodeChecks, TRunPassage, TUsedMemory } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/**
 * The run_passages, run_step_passages and run_memories tables (migration 0022, decision 037):
 * what a run was given from the user's documents and memories, and what its calls cited.
 */

export async function insertRunPassages(
  db: Queryable,
  runId: string,
  passages: readonly TRunPassage[],
): Promise<void> {
  if (passages.length === 0) return;
  await db.query(
    `INSERT INTO run_passages (run_id, n, chunk_id, document_id, document_name, page, section, text, url)
     SELECT $1, p.n, p.chunk_id, p.document_id, p.document_name, p.page, p.section, p.text, p.url
     FROM jsonb_to_recordset($2::jsonb) AS p(n integer, chunk_id text, document_id text,
       document_name text, page integer, section text, text text, url text)
     ON CONFLICT DO NOTHING`,
    [runId, JSON.stringify(passages)],
  );
}

/** A call's passages: the numbers it was given, each marked when its output cites it. */
export async function insertStepPassages(
  db: Queryable,
  runId: string,
  callId: string,
  given: readonly number[],
  cited: readonly number[],
): Promise<void> {
  if (given.length === 0) return;
  await db.query(
    `INSERT INTO run_step_passages (run_id, call_id, n, cited)
     SELECT $1, $2, n, n = ANY($4::int[]) FROM unnest($3::int[]) AS n
     ON CONFLICT (call_id, n) DO UPDATE SET cited = EXCLUDED.cited`,
    [runId, callId, [...given], [...cited]],
  );
}

export async function insertRunMemories(
  db: Queryable,
  runId: string,
  memories: readonly TUsedMemory[],
): Promise<void> {
  if (memories.length === 0) return;
  await db.query(
    `INSERT INTO run_memories (run_id, position, memory_id, text)
     SELECT $1, m.position, m.id, m.text
     FROM jsonb_to_recordset($2::jsonb) AS m(position integer, id text, text text)
     ON CONFLICT DO NOTHING`,
    [runId, JSON.stringify(memories.map((m, i) => ({ position: i + 1, id: m.id, text: m.text })))],
  );
}

export interface StoredRunMaterial {
  passages: TRunPassage[];
  memories: TUsedMemory[];
  /** By call id: the numbers given and cited. */
  steps: Map<string, { passages: number[]; cited: number[] }>;
  /** The Critic's score of each of the run's own drafts, by plan step id. */
  draftScores?: Record<string, number>;
  /** What that review rested on, and the checks that ran (decision 068). */
  criticEvidence?: "ran" | "opinion";
  criticChecks?: TCodeChecks;
}

/** The material of the runs `runIds`, by run id (runs without any are absent). */
export async function loadRunMaterial(
  db: Queryable,
  runIds: readonly string[],
): Promise<Map<string, StoredRunMaterial>> {
  const byRun = new Map<string, StoredRunMaterial>();
  if (runIds.length === 0) return byRun;
  const ids = [...runIds];
  const [passages, steps, memories, verdicts] = await Promise.all([
    db.query<Omit<TRunPassage, "url"> & { run_id: string; url: string | null }>(
      `SELECT run_id, n, chunk_id, document_id, document_name, page, section, text, url
       FROM run_passages WHERE run_id = ANY($1::uuid[]) ORDER BY run_id, n`,
      [ids],
    ),
    db.query<{ run_id: string; call_id: string; n: number; cited: boolean }>(
      `SELECT run_id, call_id, n, cited FROM run_step_passages
       WHERE run_id = ANY($1::uuid[]) ORDER BY call_id, n`,
      [ids],
    ),
    db.query<{ run_id: string; memory_id: string; text: string }>(
      `SELECT run_id, memory_id, text FROM run_memories
       WHERE run_id = ANY($1::uuid[]) ORDER BY run_id, position`,
      [ids],
    ),
    // The per-draft scores live only in the verdict events (and an import's verdicts).
    db.query<{ run_id: string; data: { draft_scores?: Record<string, number> } | string }>(
      `SELECT run_id, data FROM run_events
       WHERE session_id IN (SELECT session_id FROM runs WHERE id = ANY($1::uuid[]))
         AND run_id = ANY($1::uuid[]) AND type = 'critic.verdict'
         AND NOT (data ? 'rerun_call_id')
       UNION ALL
       SELECT r.id AS run_id, v.value AS data FROM runs r,
         jsonb_array_elements(r.imported_verdicts) v
       WHERE r.id = ANY($1::uuid[]) AND r.imported_verdicts IS NOT NULL
         AND NOT (v.value ? 'rerun_call_id')`,
      [ids],
    ),
  ]);
  const of = (runId: string) => {
    let material = byRun.get(runId);
    if (!material) {
      material = { passages: [], memories: [], steps: new Map() };
      byRun.set(runId, material);
    }
    return material;
  };
  for (const { run_id, url, ...passage } of passages.rows) {
    // A tool's source keeps its address (decision 067); a document's passage has none.
    of(run_id).passages.push({ ...passage, n: Number(passage.n), ...(url ? { url } : {}) });
  }
  for (const row of steps.rows) {
    const material = of(row.run_id);
    const step = material.steps.get(row.call_id) ?? { passages: [], cited: [] };
    step.passages.push(Number(row.n));
    if (row.cited) step.cited.push(Number(row.n));
    material.steps.set(row.call_id, step);
  }
  for (const row of memories.rows)
    of(row.run_id).memories.push({ id: row.memory_id, text: row.text });
  for (const row of verdicts.rows) {
    const data = typeof row.data === "string" ? JSON.parse(row.data) : row.data;
    const verdict = data as {
      draft_scores?: Record<string, number>;
      evidence?: "ran" | "opinion";
      checks?: TCodeChecks;
    };
    const scores = verdict.draft_scores;
    if (scores && Object.keys(scores).length > 0) of(row.run_id).draftScores = scores;
    if (verdict.evidence) of(row.run_id).criticEvidence = verdict.evidence;
    if (verdict.checks) of(row.run_id).criticChecks = verdict.checks;
  }
  return byRun;
}

import { hundredthsOf, isRunActive, type TExportedRun } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { insertRunMemories, insertRunPassages, insertStepPassages } from "./material-store";

/** What a run's `instance_id` says for a run no instance ever ran. */
const IMPORT_INSTANCE = "import";

/**
 * Writes the runs of an imported session (decision 043), ids already replaced by the caller,
 * marked `imported`: no holds, no usage, no ledger rows, no events — they never ran here.
 * Their costs are the export's, shown as history. A run the export caught while it was
 * going is stored as cancelled (nothing here will ever finish it), its open calls stopped.
 */
export async function importRuns(
  db: Queryable,
  sessionId: string,
  userId: string,
  runs: readonly TExportedRun[],
): Promise<void> {
  if (runs.length === 0) return;
  await db.query(
    `INSERT INTO runs (id, session_id, user_id, message_id, result_message_id, status, mode,
       coordinator_model, plan, critic_score, total_credits, input_tokens, output_tokens,
       error_code, error_message, first_seq, instance_id, created_at, finished_at, imported,
       imported_verdicts, shown_at, fork)
     SELECT r.id, $1, $2, r.message_id, r.result_message_id, r.status, r.mode,
       r.coordinator_model, r.plan, r.critic_score, r.total_credits, r.input_tokens,
       r.output_tokens, r.error_code, r.error_message, NULL, $3, r.created_at,
       r.finished_at, true, r.verdicts, COALESCE(r.shown_at, r.created_at), r.fork
     FROM jsonb_to_recordset($4::jsonb) AS r(id uuid, message_id uuid, result_message_id uuid,
       status text, mode text, coordinator_model text, plan jsonb, critic_score numeric,
       total_credits bigint, input_tokens integer, output_tokens integer, error_code text,
       error_message text, created_at timestamptz, finished_at timestamptz, verdicts jsonb,
       shown_at timestamptz, fork jsonb)`,
    [sessionId, userId, IMPORT_INSTANCE, JSON.stringify(runs.map(runRecord))],
  );
  const steps = runs.flatMap((run) => run.steps.map((step) => stepRecord(run.id, step)));
  if (steps.length > 0) {
    await db.query(
      `INSERT INTO run_steps (id, run_id, kind, step_id, role, model, model_name, provider,
         simulated, status, stopped, credits, input_tokens, output_tokens, latency_ms, ttft_ms,
         output, error_code, error_message, started_at, finished_at, version, rerun_of,
         temperature, critic_score)
       SELECT s.id, s.run_id, s.kind, s.step_id, s.role, s.model, s.model_name, s.provider,
         s.simulated, s.status, s.stopped, s.credits, s.input_tokens, s.output_tokens,
         s.latency_ms, s.ttft_ms, s.output, s.error_code, s.error_message, s.started_at,
         s.finished_at, s.version, s.rerun_of, s.temperature, s.critic_score
       FROM jsonb_to_recordset($1::jsonb) AS s(id uuid, run_id uuid, kind text, step_id text,
         role text, model text, model_name text, provider text, simulated boolean, status text,
         stopped boolean, credits bigint, input_tokens integer, output_tokens integer,
         latency_ms integer, ttft_ms integer, output text, error_code text, error_message text,
         started_at timestamptz, finished_at timestamptz, version integer, rerun_of uuid,
         temperature real, critic_score numeric)`,
      [JSON.stringify(steps)],
    );
  }
  for (const run of runs) await importMaterial(db, run);
}

async function importMaterial(db: Queryable, run: TExportedRun): Promise<void> {
  await insertRunPassages(db, run.id, run.passages);
  await insertRunMemories(db, run.id, run.memories);
  for (const step of run.steps) {
    await insertStepPassages(db, run.id, step.id, step.passages ?? [], step.cited ?? []);
  }
}

function runRecord(run: TExportedRun) {
  const going = isRunActive(run.status);
  return {
    id: run.id,
    message_id: run.message_id,
    result_message_id: run.result_message_id,
    status: going ? "cancelled" : run.status,
    mode: run.mode,
    coordinator_model: run.coordinator_model,
    plan: run.plan,
    critic_score: run.critic_score,
    total_credits: hundredthsOf(run.total_credits),
    input_tokens: run.input_tokens,
    output_tokens: run.output_tokens,
    error_code: run.error?.code ?? null,
    error_message: run.error?.message ?? null,
    created_at: run.created_at,
    finished_at: run.finished_at ?? (going ? run.created_at : null),
    verdicts: run.critic_verdicts,
    shown_at: run.shown_at ?? null,
    fork: run.fork ?? null,
  };
}

function stepRecord(runId: string, step: TExportedRun["steps"][number]) {
  const open = step.status === "running";
  return {
    id: step.id,
    run_id: runId,
    kind: step.kind,
    step_id: step.step_id,
    role: step.role,
    model: step.model,
    model_name: step.model_name,
    provider: step.provider,
    simulated: step.simulated,
    status: open ? "stopped" : step.status,
    stopped: open || step.stopped,
    credits: hundredthsOf(step.credits),
    input_tokens: step.input_tokens,
    output_tokens: step.output_tokens,
    latency_ms: step.latency_ms,
    ttft_ms: step.ttft_ms,
    output: step.output,
    error_code: step.error?.code ?? null,
    error_message: step.error?.message ?? null,
    started_at: step.started_at,
    finished_at: step.finished_at ?? (open ? step.started_at : null),
    version: step.version,
    rerun_of: step.rerun_of,
    temperature: step.temperature,
    critic_score: step.critic_score,
  };
}

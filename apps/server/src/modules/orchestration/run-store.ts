import {
  ACTIVE_RUN_STATUSES,
  creditsOf,
  type Hundredths,
  hundredths,
  NO_CREDITS,
  type TAgentRole,
  type TCreditLimitKind,
  type TRun,
  type TRunFork,
  type TRunMode,
  type TRunOutcome,
  type TRunPlanView,
  type TRunStatus,
  type TRunStep,
  type TRunStepKind,
  type TRunStepStatus,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { loadRunMaterial, type StoredRunMaterial } from "./material-store";

/** The runs and run_steps tables; only this module's files read or write them. */

export const ACTIVE_STATUSES_SQL = `(${ACTIVE_RUN_STATUSES.map((s) => `'${s}'`).join(", ")})`;

interface RunRow {
  id: string;
  session_id: string;
  user_id: string;
  message_id: string;
  result_message_id: string | null;
  status: TRunStatus;
  mode: TRunMode;
  coordinator_model: string;
  plan: TRunPlanView | null;
  critic_score: number | null;
  total_credits: Hundredths;
  input_tokens: number;
  output_tokens: number;
  error_code: string | null;
  error_message: string | null;
  first_seq: number | null;
  created_at: Date | string;
  finished_at: Date | string | null;
  /** Came in with a session import (migration 0027): never ran here, cost nothing here. */
  imported: boolean;
  resume_count: number;
  /** Migrations 0046/0047 (decision 070): when it was last put on screen; a fork's origin. */
  shown_at: Date | string;
  fork: TRunFork | null;
}

const RUN_COLUMNS =
  "id, session_id, user_id, message_id, result_message_id, status, mode, coordinator_model, plan, critic_score, total_credits, input_tokens, output_tokens, error_code, error_message, first_seq, created_at, finished_at, imported, resume_count, shown_at, fork";

interface StepRow {
  id: string;
  run_id: string;
  kind: TRunStepKind;
  step_id: string | null;
  role: TAgentRole | null;
  model: string;
  model_name: string;
  provider: string | null;
  simulated: boolean | null;
  status: TRunStepStatus;
  stopped: boolean;
  credits: Hundredths;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number | null;
  ttft_ms: number | null;
  output: string;
  error_code: string | null;
  error_message: string | null;
  started_at: Date | string;
  finished_at: Date | string | null;
  version: number;
  rerun_of: string | null;
  temperature: number | null;
  critic_score: number | string | null;
  limit_kind: TCreditLimitKind | null;
  would_be_credits: number | string | null;
  /** A fork's kept step (decision 070): the call it copied. */
  copied_from: string | null;
}

const STEP_COLUMNS =
  "id, run_id, kind, step_id, role, model, model_name, provider, simulated, status, stopped, credits, input_tokens, output_tokens, latency_ms, ttft_ms, output, error_code, error_message, started_at, finished_at, version, rerun_of, temperature, critic_score, limit_kind, would_be_credits, copied_from";

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

function toStep(row: StepRow): TRunStep {
  return {
    id: row.id,
    kind: row.kind,
    step_id: row.step_id,
    role: row.role,
    model: row.model,
    model_name: row.model_name,
    provider: row.provider,
    simulated: row.simulated,
    status: row.status,
    stopped: row.stopped,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    credits: creditsOf(row.credits),
    latency_ms: row.latency_ms,
    ttft_ms: row.ttft_ms,
    output: row.output,
    error:
      row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? "" },
    started_at: iso(row.started_at),
    finished_at: isoOrNull(row.finished_at),
    version: row.version,
    rerun_of: row.rerun_of,
    temperature: row.temperature === null ? null : Number(row.temperature),
    critic_score: row.critic_score === null ? null : Number(row.critic_score),
    ...(row.limit_kind === null ? {} : { limit: row.limit_kind }),
    ...(row.would_be_credits === null
      ? {}
      : { would_be_credits: creditsOf(hundredths(Number(row.would_be_credits))) }),
    ...(row.copied_from === null ? {} : { copied: true }),
  };
}

function toRun(row: RunRow, steps: TRunStep[]): TRun {
  return {
    id: row.id,
    session_id: row.session_id,
    message_id: row.message_id,
    result_message_id: row.result_message_id,
    status: row.status,
    mode: row.mode,
    coordinator_model: row.coordinator_model,
    plan: row.plan,
    critic_score: row.critic_score === null ? null : Number(row.critic_score),
    total_credits: creditsOf(row.total_credits),
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    error:
      row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? "" },
    first_seq: row.first_seq === null ? null : Number(row.first_seq),
    created_at: iso(row.created_at),
    finished_at: isoOrNull(row.finished_at),
    steps,
    ...(row.imported ? { imported: true } : {}),
    ...(row.resume_count > 0 ? { resumes: row.resume_count } : {}),
    shown_at: iso(row.shown_at),
    ...(row.fork ? { fork: row.fork } : {}),
  };
}

export interface NewRun {
  id: string;
  sessionId: string;
  userId: string;
  messageId: string;
  mode: TRunMode;
  coordinatorModel: string;
  instanceId: string;
}

const RUN_INSERT_COLUMNS =
  "id, session_id, user_id, message_id, mode, coordinator_model, instance_id";

function runValues(run: NewRun): unknown[] {
  const { id, sessionId, userId, messageId, mode, coordinatorModel, instanceId } = run;
  return [id, sessionId, userId, messageId, mode, coordinatorModel, instanceId];
}

/** Inserts a queued run; a second active run in the session violates a unique index (23505). */
export async function insertRun(db: Queryable, run: NewRun): Promise<void> {
  const params = runValues(run);
  await db.query(
    `INSERT INTO runs (${RUN_INSERT_COLUMNS}) VALUES (${placeholders(1, params.length).join(", ")})`,
    params,
  );
}

/**
 * A run's row inside another statement (`call-statements.ts`): written once per row of
 * `from` (a CTE of that statement, e.g. its message: no message, no run). Parameters from
 * `$first`. The session's one active run is a unique key, so a second one fails the whole
 * statement (`isUniqueViolation`).
 */
export function insertRunPart(
  first: number,
  run: NewRun,
  from: string,
): { sql: string; params: unknown[] } {
  const params = runValues(run);
  return {
    sql: `INSERT INTO runs (${RUN_INSERT_COLUMNS})
      SELECT ${placeholders(first, params.length).join(", ")} FROM ${from}`,
    params,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

/**
 * A run with what it was given from documents and memories (decision 037): every passage by
 * number, the numbers its answer cites (its own synthesis), and per call, given and cited.
 */
function withMaterial(run: TRun, material: StoredRunMaterial | undefined): TRun {
  const steps = run.steps.map((step) => {
    const mine = material?.steps.get(step.id);
    return { ...step, passages: mine?.passages ?? [], cited: mine?.cited ?? [] };
  });
  const answer = steps.find((s) => s.kind === "synthesis" && s.rerun_of === null);
  return {
    ...run,
    steps,
    passages: material?.passages ?? [],
    cited: answer?.cited ?? [],
    memories: material?.memories ?? [],
    ...(material?.draftScores ? { draft_scores: material.draftScores } : {}),
    ...(material?.criticEvidence ? { critic_evidence: material.criticEvidence } : {}),
    ...(material?.criticChecks ? { critic_checks: material.criticChecks } : {}),
  };
}

/** The session's runs with their steps, oldest first. */
export async function listRuns(db: Queryable, sessionId: string): Promise<TRun[]> {
  const runs = await listRunRows(db, sessionId);
  const material = await loadRunMaterial(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((run) => withMaterial(run, material.get(run.id)));
}

/**
 * A paged view of the session's runs (decision 077), oldest first: the newest `full` in full,
 * the older ones as outlines (no steps, plan or material).
 */
export async function listRunsPaged(
  db: Queryable,
  sessionId: string,
  full: number,
): Promise<TRun[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE session_id = $1 ORDER BY created_at, id`,
    [sessionId],
  );
  const outlined = Math.max(0, rows.length - full);
  const whole = await fullRuns(db, rows.slice(outlined));
  return [...rows.slice(0, outlined).map(outlineOf), ...whole];
}

/**
 * Up to `limit` of the session's runs just older than run `before`, in full, oldest first,
 * and whether older ones remain; null when `before` is not a run of the session.
 */
export async function listRunsBefore(
  db: Queryable,
  sessionId: string,
  before: string,
  limit: number,
): Promise<{ runs: TRun[]; earlier: boolean } | null> {
  if (!UUID.test(before)) return null;
  const cursor = await db.query("SELECT 1 FROM runs WHERE id = $1 AND session_id = $2", [
    before,
    sessionId,
  ]);
  if (cursor.rows.length === 0) return null;
  // Compared in SQL: the stored time has microseconds, a JavaScript Date only milliseconds.
  const { rows } = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs
     WHERE session_id = $1
       AND (created_at, id) < (SELECT created_at, id FROM runs WHERE id = $2::uuid)
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [sessionId, before, limit + 1],
  );
  const page = rows.slice(0, limit).reverse();
  return { runs: await fullRuns(db, page), earlier: rows.length > limit };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function outlineOf(row: RunRow): TRun {
  return { ...toRun(row, []), plan: null, outline: true };
}

/** These runs (rows in order) with their steps and material. */
async function fullRuns(db: Queryable, rows: RunRow[]): Promise<TRun[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [steps, material] = await Promise.all([
    db.query<StepRow>(
      `SELECT ${STEP_COLUMNS} FROM run_steps WHERE run_id = ANY($1::uuid[])
       ORDER BY started_at, id`,
      [ids],
    ),
    loadRunMaterial(db, ids),
  ]);
  const byRun = new Map<string, TRunStep[]>();
  for (const row of steps.rows) {
    byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), toStep(row)]);
  }
  return rows.map((row) => withMaterial(toRun(row, byRun.get(row.id) ?? []), material.get(row.id)));
}

async function listRunRows(db: Queryable, sessionId: string): Promise<TRun[]> {
  const [runs, steps] = await Promise.all([
    db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE session_id = $1 ORDER BY created_at, id`,
      [sessionId],
    ),
    db.query<StepRow>(
      `SELECT ${STEP_COLUMNS.split(", ")
        .map((c) => `s.${c}`)
        .join(", ")}
       FROM run_steps s JOIN runs r ON r.id = s.run_id
       WHERE r.session_id = $1 ORDER BY s.started_at, s.id`,
      [sessionId],
    ),
  ]);
  const byRun = new Map<string, TRunStep[]>();
  for (const row of steps.rows) {
    byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), toStep(row)]);
  }
  return runs.rows.map((row) => toRun(row, byRun.get(row.id) ?? []));
}

export async function getRun(db: Queryable, runId: string): Promise<TRun | null> {
  const { rows } = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [runId]);
  const row = rows[0];
  if (!row) return null;
  const [steps, material] = await Promise.all([
    db.query<StepRow>(
      `SELECT ${STEP_COLUMNS} FROM run_steps WHERE run_id = $1 ORDER BY started_at, id`,
      [runId],
    ),
    loadRunMaterial(db, [runId]),
  ]);
  return withMaterial(toRun(row, steps.rows.map(toStep)), material.get(runId));
}

export interface RunRef {
  id: string;
  sessionId: string;
  userId: string;
  status: TRunStatus;
}

/** The run whoever started it (null: no such run); access is the caller's (`findRunFor`). */
export async function findRunRef(db: Queryable, runId: string): Promise<RunRef | null> {
  const { rows } = await db.query<{
    id: string;
    session_id: string;
    user_id: string;
    status: TRunStatus;
  }>("SELECT id, session_id, user_id, status FROM runs WHERE id = $1", [runId]);
  const row = rows[0];
  return row
    ? { id: row.id, sessionId: row.session_id, userId: row.user_id, status: row.status }
    : null;
}

export async function findActiveRun(db: Queryable, sessionId: string): Promise<RunRef | null> {
  const { rows } = await db.query<{
    id: string;
    user_id: string;
    status: TRunStatus;
  }>(
    `SELECT id, user_id, status FROM runs WHERE session_id = $1 AND status IN ${ACTIVE_STATUSES_SQL}`,
    [sessionId],
  );
  const row = rows[0];
  return row ? { id: row.id, sessionId, userId: row.user_id, status: row.status } : null;
}

export async function runStatus(db: Queryable, runId: string): Promise<TRunStatus | null> {
  const { rows } = await db.query<{ status: TRunStatus }>("SELECT status FROM runs WHERE id = $1", [
    runId,
  ]);
  return rows[0]?.status ?? null;
}

/**
 * Stores a move of an active run to its next phase (the plan with `running`, the run's
 * first event with `planning`); a run that already ended stays as it is.
 */
export async function storeRunPhase(
  db: Queryable,
  runId: string,
  status: TRunStatus,
  extra: { firstSeq?: number; plan?: TRunPlanView } = {},
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE runs SET status = $2,
       first_seq = COALESCE($3, first_seq),
       plan = COALESCE($4::jsonb, plan),
       heartbeat_at = now()
     WHERE id = $1 AND status IN ${ACTIVE_STATUSES_SQL}`,
    [runId, status, extra.firstSeq ?? null, extra.plan ? JSON.stringify(extra.plan) : null],
  );
  return rowCount > 0;
}

export interface RunEnding {
  outcome: TRunOutcome;
  totalCredits: Hundredths;
  inputTokens: number;
  outputTokens: number;
  /** Left as it is when undefined (a run ended by another instance's sweep). */
  criticScore?: number | null | undefined;
  resultMessageId?: string | undefined;
}

/**
 * A run's end as a statement's part (parameters from `$first`): the update of the row, if it
 * is still active. `finishRun` runs it alone; the completed run's answer comes with it
 * (call-statements.ts).
 */
export function finishRunPart(
  first: number,
  runId: string,
  ending: RunEnding,
  charge?: { credits: string; from: string },
): { sql: string; params: unknown[] } {
  const { outcome } = ending;
  const [id, status, total, input, output, code, message, result, scored, score] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
  ].map((i) => `$${first + i}`);
  // With `charge` (a call settled in the same statement, e.g. the synthesis's `hold.charged`,
  // decision 091) the run's total is `ending.totalCredits` (the other calls) plus that charge,
  // as the statement settled it.
  const totalSql = charge ? `${total}::bigint + ${charge.credits}` : total;
  return {
    sql: `UPDATE runs SET status = ${status}, total_credits = ${totalSql}, input_tokens = ${input},
       output_tokens = ${output}, error_code = ${code}, error_message = ${message},
       result_message_id = ${result}::uuid,
       critic_score = CASE WHEN ${scored}::boolean THEN ${score} ELSE runs.critic_score END,
       finished_at = clock_timestamp()
     ${charge ? `FROM ${charge.from} ` : ""}WHERE runs.id = ${id} AND runs.status IN ${ACTIVE_STATUSES_SQL}`,
    params: [
      runId,
      outcome.status,
      ending.totalCredits,
      ending.inputTokens,
      ending.outputTokens,
      outcome.status === "failed" ? outcome.code : null,
      outcome.status === "failed" ? outcome.message : null,
      ending.resultMessageId ?? null,
      ending.criticScore !== undefined,
      ending.criticScore ?? null,
    ],
  };
}

/** Ends an active run once; returns false when it had ended already (another instance). */
export async function finishRun(db: Queryable, runId: string, ending: RunEnding): Promise<boolean> {
  const { sql, params } = finishRunPart(1, runId, ending);
  const { rowCount } = await db.query(sql, params);
  return rowCount > 0;
}

/**
 * The heartbeat of the runs this instance executes; returns those it still holds. A run
 * missing from the answer was taken over by another instance (this one looked dead to it):
 * this instance must stop working on it without ending it (decision 047).
 */
export async function touchRuns(
  db: Queryable,
  runIds: readonly string[],
  instanceId: string,
): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    `UPDATE runs SET heartbeat_at = now()
     WHERE id = ANY($1::uuid[]) AND instance_id = $2 RETURNING id`,
    [runIds, instanceId],
  );
  return new Set(rows.map((r) => r.id));
}

/** An active run as an instance takes it over (`claimRun`). */
export interface ClaimedRun {
  id: string;
  sessionId: string;
  userId: string;
  status: TRunStatus;
  /** Whether the run had started before (its first event is stored): a resumption. */
  started: boolean;
  /** Resumptions so far, this one included. */
  resumeCount: number;
}

/**
 * Makes this instance the run's executor, if the run is still active: a run that had started
 * counts one more resumption. Its heartbeat is fresh from here on, so no sweep takes it too.
 * `firstStart`: the instance that created the run claims it to start it (a fork is stored
 * started, from its copied calls, before its first execution): not a resumption.
 */
export async function claimRun(
  db: Queryable,
  runId: string,
  instanceId: string,
  options: { firstStart?: boolean } = {},
): Promise<ClaimedRun | null> {
  const { rows } = await db.query<{
    id: string;
    session_id: string;
    user_id: string;
    status: TRunStatus;
    started: boolean;
    resume_count: number;
  }>(
    `UPDATE runs SET instance_id = $2, heartbeat_at = now(),
       resume_count = resume_count +
         CASE WHEN $3::boolean OR (first_seq IS NULL AND status = 'queued') THEN 0 ELSE 1 END
     WHERE id = $1 AND status IN ${ACTIVE_STATUSES_SQL}
     RETURNING id, session_id, user_id, status, resume_count,
       NOT (first_seq IS NULL AND status = 'queued') AS started`,
    [runId, instanceId, options.firstStart === true],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        sessionId: row.session_id,
        userId: row.user_id,
        status: row.status,
        started: row.started,
        resumeCount: row.resume_count,
      }
    : null;
}

export interface NewStep {
  id: string;
  runId: string;
  kind: TRunStepKind;
  stepId: string | null;
  role: TAgentRole | null;
  model: string;
  modelName: string;
  provider: string;
  simulated: boolean;
  /** A re-run (decision 031): its version, the call it re-runs, the temperature asked. */
  rerun?:
    | {
        version: number;
        of: string;
        temperature: number | null;
        /** A re-written answer: the plan step whose re-run it uses (for its events). */
        answerFor?: string;
      }
    | undefined;
}

const STEP_OPEN_COLUMNS =
  "id, run_id, kind, step_id, role, model, model_name, provider, simulated, version, rerun_of, temperature, hold_id, reserved_credits";

/** `$first`, `$first + 1`, … for `count` parameters. */
const placeholders = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${first + i}`);

function stepOpenValues(step: NewStep): unknown[] {
  const { id, runId, kind, stepId, role, model, modelName, provider, simulated, rerun } = step;
  return [
    ...[id, runId, kind, stepId, role, model, modelName, provider, simulated],
    rerun?.version ?? 1,
    rerun?.of ?? null,
    rerun?.temperature ?? null,
  ];
}

/**
 * Opens a step row inside another statement: the row is written once per row of `from.rows`
 * (a CTE of that statement, e.g. the credits' `hold`: no hold, no row), with its hold and the
 * amount held read from it. Its parameters start at `$first`; `params` are their values.
 */
export function openStepPart(
  first: number,
  step: NewStep,
  from: { rows: string; holdId: string; amount: string },
): { sql: string; params: unknown[] } {
  const params = stepOpenValues(step);
  const values = placeholders(first, params.length).join(", ");
  return {
    sql: `INSERT INTO run_steps (${STEP_OPEN_COLUMNS})
      SELECT ${values}, ${from.holdId}, ${from.amount} FROM ${from.rows}`,
    params,
  };
}

/** A step row on its own: a call without a hold, or whose hold was reserved before its run. */
export async function insertStep(
  db: Queryable,
  step: NewStep,
  hold: { id: string; amount: Hundredths } | null,
): Promise<void> {
  const params = [...stepOpenValues(step), hold?.id ?? null, hold?.amount ?? NO_CREDITS];
  await db.query(
    `INSERT INTO run_steps (${STEP_OPEN_COLUMNS}) VALUES (${placeholders(1, params.length).join(", ")})`,
    params,
  );
}

export interface StepEnding {
  status: "completed" | "failed" | "stopped";
  provider: string | null;
  simulated: boolean | null;
  keySource: string | null;
  credits: Hundredths;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number | null;
  ttftMs: number | null;
  output: string;
  error: { code: string; message: string } | null;
  /** The limit that stopped the call where its hold could not grow (decision 053). */
  limit?: TCreditLimitKind | null;
  /** A simulated call that was not charged: its price (decision 053). */
  wouldBeCredits?: Hundredths | null;
  /** The lane's priced tool calls, settled on their own holds, added to the row (decision 067). */
  toolCredits?: Hundredths;
}

/**
 * Ends the step row `$first` inside another statement (or alone, `finishStep`). With
 * `credits`, the charge is that SQL expression (e.g. the settled hold's `hold.charged`, read
 * from `from`) instead of `ending.credits`.
 */
export function endStepPart(
  first: number,
  id: string,
  ending: StepEnding,
  charge?: { credits: string; from: string },
): { sql: string; params: unknown[] } {
  const columns: [string, unknown][] = [
    ["status", ending.status],
    ["stopped", ending.status === "stopped"],
    ["key_source", ending.keySource],
    ["input_tokens", ending.inputTokens],
    ["output_tokens", ending.outputTokens],
    ["latency_ms", ending.latencyMs],
    ["ttft_ms", ending.ttftMs],
    ["output", ending.output],
    ["error_code", ending.error?.code ?? null],
    ["error_message", ending.error?.message ?? null],
    ["provider", ending.provider],
    ["simulated", ending.simulated],
    ["limit_kind", ending.limit ?? null],
    ["would_be_credits", ending.wouldBeCredits ?? null],
    ...(charge
      ? []
      : [["credits", ending.credits + (ending.toolCredits ?? 0)] as [string, unknown]]),
  ];
  // The row's credits are the lane's whole step: its model turns and its tools (decision 067).
  const tools = ending.toolCredits ?? 0;
  const at = (i: number) => `$${first + 1 + i}`;
  const set = columns.map(([column], i) =>
    column === "provider" || column === "simulated"
      ? `${column} = COALESCE(${at(i)}, run_steps.${column})`
      : `${column} = ${at(i)}`,
  );
  if (charge) set.push(`credits = ${charge.credits} + ${at(columns.length)}::bigint`);
  return {
    sql: `UPDATE run_steps SET ${set.join(", ")}, finished_at = clock_timestamp()
      ${charge ? `FROM ${charge.from} ` : ""}WHERE run_steps.id = $${first}`,
    params: [id, ...columns.map(([, value]) => value), ...(charge ? [tools] : [])],
  };
}

export async function finishStep(db: Queryable, id: string, ending: StepEnding): Promise<void> {
  const { sql, params } = endStepPart(1, id, ending);
  await db.query(sql, params);
}

/** Ends the calls of a run that were cut off; returns the holds they still had. */
export async function stopRunningSteps(db: Queryable, runId: string): Promise<string[]> {
  const { rows } = await db.query<{ hold_id: string | null }>(
    `UPDATE run_steps SET status = 'stopped', stopped = true, error_code = 'stopped',
       error_message = 'Stopped before it finished.', finished_at = clock_timestamp()
     WHERE run_id = $1 AND status = 'running' RETURNING hold_id`,
    [runId],
  );
  return rows.flatMap((r) => (r.hold_id ? [r.hold_id] : []));
}

export async function sumRunSteps(
  db: Queryable,
  runId: string,
): Promise<{ credits: Hundredths; inputTokens: number; outputTokens: number }> {
  const { rows } = await db.query<{
    credits: Hundredths;
    input_tokens: number;
    output_tokens: number;
  }>(
    `SELECT COALESCE(sum(credits), 0)::bigint AS credits,
       COALESCE(sum(input_tokens), 0)::int AS input_tokens,
       COALESCE(sum(output_tokens), 0)::int AS output_tokens
     FROM run_steps WHERE run_id = $1`,
    [runId],
  );
  const row = rows[0];
  return {
    credits: row?.credits ?? NO_CREDITS,
    inputTokens: row?.input_tokens ?? 0,
    outputTokens: row?.output_tokens ?? 0,
  };
}

/**
 * Active runs nobody is running: with `staleMs`, those whose instance stopped beating;
 * without, every active run except `exceptIds` (one embedded database has one process).
 */
export async function listOrphanedRuns(
  db: Queryable,
  options: { staleMs: number | null; exceptIds: readonly string[] },
): Promise<{ id: string; sessionId: string }[]> {
  const { rows } = await db.query<{ id: string; session_id: string }>(
    `SELECT id, session_id FROM runs
     WHERE status IN ${ACTIVE_STATUSES_SQL}
       AND ($1::float8 IS NULL OR heartbeat_at < now() - make_interval(secs => $1::float8 / 1000))
       AND NOT (id = ANY($2::uuid[]))`,
    [options.staleMs, options.exceptIds],
  );
  return rows.map((r) => ({ id: r.id, sessionId: r.session_id }));
}

/** The run's steps as stored (a re-run reads its inputs from them). */
export async function listRunSteps(db: Queryable, runId: string): Promise<TRunStep[]> {
  const { rows } = await db.query<StepRow>(
    `SELECT ${STEP_COLUMNS} FROM run_steps WHERE run_id = $1 ORDER BY started_at, id`,
    [runId],
  );
  return rows.map(toStep);
}

/** A re-run's review: the Critic's score of the drafts with that version in them. */
export async function storeRerunScore(
  db: Queryable,
  callId: string,
  score: number | null,
): Promise<void> {
  await db.query("UPDATE run_steps SET critic_score = $2 WHERE id = $1", [callId, score]);
}

/**
 * Re-runs no process is running any more (a crash): their calls are marked stopped; returns
 * the holds they still had. On one embedded database every re-run not in `exceptRunIds` is
 * one; on PostgreSQL, those older than `staleMs` (a re-run is one or two calls).
 */
export async function stopOrphanedReruns(
  db: Queryable,
  options: { staleMs: number | null; exceptRunIds: readonly string[] },
): Promise<string[]> {
  const { rows } = await db.query<{ hold_id: string | null }>(
    `UPDATE run_steps SET status = 'stopped', stopped = true, error_code = 'stopped',
       error_message = 'Stopped before it finished.', finished_at = clock_timestamp()
     WHERE status = 'running' AND rerun_of IS NOT NULL
       AND NOT (run_id = ANY($2::uuid[]))
       AND ($1::float8 IS NULL OR started_at < now() - make_interval(secs => $1::float8 / 1000))
     RETURNING hold_id`,
    [options.staleMs, options.exceptRunIds],
  );
  return rows.flatMap((r) => (r.hold_id ? [r.hold_id] : []));
}

/**
 * Stops the run's re-run rows still open once this process's work on the run is over (work
 * that failed before its call could end its row); returns their holds to release.
 */
export async function stopOpenReruns(db: Queryable, runId: string): Promise<string[]> {
  const { rows } = await db.query<{ hold_id: string | null }>(
    `UPDATE run_steps SET status = 'failed', error_code = 'internal_error',
       error_message = 'This re-run could not finish.', finished_at = clock_timestamp()
     WHERE run_id = $1 AND status = 'running' AND rerun_of IS NOT NULL
     RETURNING hold_id`,
    [runId],
  );
  return rows.flatMap((r) => (r.hold_id ? [r.hold_id] : []));
}

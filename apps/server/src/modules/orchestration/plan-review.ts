import {
  STEERING_ERROR_CODES,
  STEERING_MESSAGES,
  type TPlanReview,
  type TRunPlanView,
  type TRunStatus,
} from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";
import { waitUntilDecided } from "../../platform/durable-pause";
import { advance } from "./advance-run";
import type { PlanOutcome } from "./plan-run";
import { failed, haltRun, type RunContext } from "./run-context";

/**
 * Plan review (decision 069): a run of a session with "Review the plan first" stops after
 * planning in `planned`. The wait is a `plan_reviews` row with a status and an expiry, waited
 * on with the approvals' durable pause (decision 059): it survives a reload, a restart and
 * another instance taking the run over (the row is found again by run id), and a start made
 * on any instance wakes it.
 */
export interface PlanReviewRow {
  id: string;
  run_id: string;
  session_id: string;
  status: "pending" | "started" | "expired" | "cancelled";
  plan: TRunPlanView;
  started_plan: TRunPlanView | null;
  edited: boolean;
  created_at: Date | string;
  expires_at: Date | string;
  decided_by_name: string | null;
}

const COLUMNS =
  "id, run_id, session_id, status, plan, started_plan, edited, created_at, expires_at, decided_by_name";

/** The key a plan review's waiters are woken with. */
export const planReviewKey = (reviewId: string) => `plan:${reviewId}`;

export async function getPlanReviewOfRun(
  db: Queryable,
  runId: string,
): Promise<PlanReviewRow | null> {
  const { rows } = await db.query<PlanReviewRow>(
    `SELECT ${COLUMNS} FROM plan_reviews WHERE run_id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

async function openPlanReview(
  ctx: RunContext,
  plan: TRunPlanView,
  timeoutMs: number,
): Promise<PlanReviewRow> {
  const { db } = ctx.deps;
  // A resumed run finds the row its earlier life opened; its expiry stays as it was.
  await db.query(
    `INSERT INTO plan_reviews (run_id, session_id, plan, expires_at)
     VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (run_id) DO NOTHING`,
    [ctx.runId, ctx.sessionId, JSON.stringify(plan), new Date(Date.now() + timeoutMs)],
  );
  const row = await getPlanReviewOfRun(db, ctx.runId);
  if (!row) throw new Error(`plan review of run ${ctx.runId} not stored`);
  return row;
}

/**
 * Closes a pending review: `started` with the plan as the person left it (returns the row),
 * or null when it was no longer pending or past its time (the caller answers 409).
 */
export async function startPlanReview(
  db: Queryable,
  reviewId: string,
  start: { plan: TRunPlanView; edited: boolean; userId: string; userName: string },
): Promise<PlanReviewRow | null> {
  const { rows } = await db.query<PlanReviewRow>(
    `UPDATE plan_reviews SET status = 'started', started_plan = $2::jsonb, edited = $3,
       decided_by = $4, decided_by_name = $5, decided_at = clock_timestamp()
     WHERE id = $1 AND status = 'pending' AND expires_at > clock_timestamp()
     RETURNING ${COLUMNS}`,
    [reviewId, JSON.stringify(start.plan), start.edited, start.userId, start.userName],
  );
  return rows[0] ?? null;
}

export function planReviewView(row: PlanReviewRow, runStatus: TRunStatus): TPlanReview {
  return {
    id: row.id,
    run_id: row.run_id,
    status: row.status,
    run_status: runStatus,
    plan: row.started_plan ?? row.plan,
    created_at: isoTimestamp(row.created_at),
    expires_at: isoTimestamp(row.expires_at),
  };
}

/**
 * Planning's end: without review the run goes on at once; with it, the run moves to
 * `planned`, and this waits for the start (the plan it returns is the one to run).
 */
export async function afterPlanning(ctx: RunContext, planned: PlanOutcome): Promise<TRunPlanView> {
  const steering = ctx.deps.steering;
  if (!ctx.reviewPlan || !steering) {
    await advance(ctx, { to: "running", ...planned });
    return planned.plan;
  }
  await advance(ctx, { to: "planned", ...planned });
  return waitForPlanStart(ctx, planned.plan);
}

/** Waits in `planned` (also after a resume) until the plan is started or its time is up. */
export async function waitForPlanStart(ctx: RunContext, plan: TRunPlanView): Promise<TRunPlanView> {
  const steering = ctx.deps.steering;
  if (!steering) {
    await advance(ctx, { to: "running", started: { plan, edited: false, byName: null } });
    return plan;
  }
  const { db } = ctx.deps;
  const review = await openPlanReview(ctx, plan, steering.planReviewTimeoutMs);
  if (review.status === "pending") {
    void ctx.events.append({
      type: "run.planned",
      review_id: review.id,
      expires_at: isoTimestamp(review.expires_at),
    });
  }
  const decided = await waitUntilDecided({
    id: planReviewKey(review.id),
    waiters: steering.waiters,
    signal: ctx.controller.signal,
    read: () => getPlanReviewOfRun(db, ctx.runId),
    expire: async (row) => {
      await db.query(
        `UPDATE plan_reviews SET status = 'expired' WHERE id = $1 AND status = 'pending'`,
        [row.id],
      );
    },
  });
  if (decided?.status !== "started") {
    const minutes = Math.max(
      1,
      Math.round(
        (new Date(review.expires_at).getTime() - new Date(review.created_at).getTime()) / 60_000,
      ),
    );
    throw haltRun(
      ctx,
      failed(STEERING_ERROR_CODES.planReviewExpired, STEERING_MESSAGES.expired(minutes)),
    );
  }
  const started = decided.started_plan ?? plan;
  await advance(ctx, {
    to: "running",
    started: { plan: started, edited: decided.edited, byName: decided.decided_by_name },
  });
  return started;
}

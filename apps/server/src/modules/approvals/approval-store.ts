import type { TApprovalCall } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { APPROVAL_COLUMNS, type ApprovalRow, argsHash } from "./approval-row";

export interface NewApproval extends TApprovalCall {
  runId: string;
  sessionId: string;
  callId: string | null;
  stepId: string | null;
  role: string | null;
  toolCallId: string;
  expiresAt: Date;
}

export async function getApproval(db: Queryable, id: string): Promise<ApprovalRow | null> {
  const { rows } = await db.query<ApprovalRow>(
    `SELECT ${APPROVAL_COLUMNS} FROM tool_approvals WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The approval an earlier life of this lane asked for the same call and did not use yet
 * (decision 059): after a restart the lane runs again and must not ask twice.
 */
export async function findUnusedApproval(
  db: Queryable,
  call: Pick<NewApproval, "runId" | "stepId" | "role" | "tool" | "args">,
): Promise<ApprovalRow | null> {
  const { rows } = await db.query<ApprovalRow>(
    `SELECT ${APPROVAL_COLUMNS} FROM tool_approvals
     WHERE run_id = $1 AND tool = $2 AND args_hash = $3 AND used_at IS NULL
       AND step_id IS NOT DISTINCT FROM $4 AND role IS NOT DISTINCT FROM $5
     ORDER BY created_at LIMIT 1`,
    [call.runId, call.tool, argsHash(call.args), call.stepId, call.role],
  );
  return rows[0] ?? null;
}

export async function insertApproval(db: Queryable, a: NewApproval): Promise<ApprovalRow> {
  const { rows } = await db.query<ApprovalRow>(
    `INSERT INTO tool_approvals (run_id, session_id, call_id, step_id, role, tool_call_id, tool,
       title, server_name, risk, args, args_hash, reason, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14)
     RETURNING ${APPROVAL_COLUMNS}`,
    [
      a.runId,
      a.sessionId,
      a.callId,
      a.stepId,
      a.role,
      a.toolCallId,
      a.tool,
      a.title,
      a.serverName,
      a.risk,
      JSON.stringify(a.args),
      argsHash(a.args),
      a.reason,
      a.expiresAt.toISOString(),
    ],
  );
  return rows[0] as ApprovalRow;
}

/** Points a re-used approval at the call that re-asked (a lane's re-run has new call ids). */
export async function attachApprovalToCall(
  db: Queryable,
  id: string,
  call: { callId: string | null; toolCallId: string },
): Promise<void> {
  await db.query("UPDATE tool_approvals SET call_id = $2, tool_call_id = $3 WHERE id = $1", [
    id,
    call.callId,
    call.toolCallId,
  ]);
}

/** Expires a request still pending: false when a decision got there first. */
export async function expireApproval(db: Queryable, id: string, note: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE tool_approvals SET status = 'expired', decided_at = clock_timestamp(), note = $2
     WHERE id = $1 AND status = 'pending'`,
    [id, note],
  );
  return rowCount > 0;
}

/** The call went on (or was refused) with this decision: a later identical call asks again. */
export async function markApprovalUsed(db: Queryable, id: string): Promise<void> {
  await db.query(
    "UPDATE tool_approvals SET used_at = clock_timestamp() WHERE id = $1 AND used_at IS NULL",
    [id],
  );
}

/** The session's requests still waiting in its active run, oldest first. */
export async function listPendingApprovals(
  db: Queryable,
  sessionId: string,
  runId: string,
): Promise<ApprovalRow[]> {
  const { rows } = await db.query<ApprovalRow>(
    `SELECT ${APPROVAL_COLUMNS} FROM tool_approvals
     WHERE session_id = $1 AND run_id = $2 AND status = 'pending'
     ORDER BY created_at, id`,
    [sessionId, runId],
  );
  return rows;
}

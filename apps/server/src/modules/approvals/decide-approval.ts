import {
  APPROVAL_ARGS_MAX_CHARS,
  APPROVAL_ERROR_CODES,
  APPROVAL_MESSAGES,
  ERROR_CODES,
  isRunActive,
  type TDecideApprovalRequest,
  type TToolApproval,
  ZDecideApprovalRequest,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { runStatus } from "../orchestration/run-store";
import { findSessionFor } from "../sessions/find-session";
import { recordWorkspaceAudit } from "../workspaces/record-workspace-audit";
import { APPROVAL_COLUMNS, type ApprovalRow, toApproval } from "./approval-row";
import { allowToolInSession } from "./session-tool-rules";

function approvalNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, APPROVAL_MESSAGES.notFound);
}

/** The run ended (stopped, failed) while its call waited: the request is over. */
export const RUN_ENDED_NOTE = "The run ended before anyone answered: the tool was not called.";

type Outcome = { approval: TToolApproval } | { conflict: TToolApproval };

/**
 * POST /api/sessions/:id/approvals/:approvalId (decision 059): anyone who may run in the
 * session's workspace (member+) decides a pending request, once; who and when are stored
 * with it, and the workspace's audit log gets a line in the same transaction. A request past
 * its time, or of a run that ended, is closed here and answered 409 like a decided one.
 */
export async function decideApproval(
  db: Db,
  actor: { id: string; name: string },
  sessionId: string,
  approvalId: string,
  body: TDecideApprovalRequest,
): Promise<TToolApproval> {
  const request = ZDecideApprovalRequest.parse(body);
  if (request.decision === "deny" && (request.args !== undefined || request.always)) {
    throw new AppError(ERROR_CODES.badRequest, 400, APPROVAL_MESSAGES.argsOnlyWhenApproving);
  }
  if (request.args !== undefined && JSON.stringify(request.args).length > APPROVAL_ARGS_MAX_CHARS) {
    throw new AppError(APPROVAL_ERROR_CODES.argsTooLarge, 400, APPROVAL_MESSAGES.argsTooLarge);
  }
  const outcome = await db.transaction<Outcome>(async (tx) => {
    const session = await findSessionFor(tx, actor.id, sessionId, { least: "member" });
    if (!isUuid(approvalId)) throw approvalNotFound();
    const { rows } = await tx.query<ApprovalRow & { expired: boolean }>(
      `SELECT ${APPROVAL_COLUMNS}, expires_at <= clock_timestamp() AS expired FROM tool_approvals
       WHERE id = $1 AND session_id = $2 FOR UPDATE`,
      [approvalId, sessionId],
    );
    const row = rows[0];
    if (!row) throw approvalNotFound();
    if (row.status !== "pending") return { conflict: toApproval(row) };
    const status = await runStatus(tx, row.run_id);
    if (row.expired || status === null || !isRunActive(status)) {
      const seconds = Math.round(
        (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 1000,
      );
      const note = row.expired ? APPROVAL_MESSAGES.expiredNote(seconds) : RUN_ENDED_NOTE;
      const closed = await tx.query<ApprovalRow>(
        `UPDATE tool_approvals SET status = 'expired', decided_at = clock_timestamp(), note = $2
         WHERE id = $1 RETURNING ${APPROVAL_COLUMNS}`,
        [row.id, note],
      );
      return { conflict: toApproval(closed.rows[0] as ApprovalRow) };
    }
    const approved = request.decision === "approve";
    const { rows: decided } = await tx.query<ApprovalRow>(
      `UPDATE tool_approvals SET status = $2, decided_by = $3, decided_by_name = $4,
         decided_at = clock_timestamp(), decided_args = $5::jsonb, note = $6, always = $7
       WHERE id = $1 RETURNING ${APPROVAL_COLUMNS}`,
      [
        row.id,
        approved ? "approved" : "denied",
        actor.id,
        actor.name,
        request.args === undefined ? null : JSON.stringify(request.args),
        approved ? null : APPROVAL_MESSAGES.deniedNote(actor.name),
        request.always,
      ],
    );
    if (request.always) await allowToolInSession(tx, sessionId, row.tool, actor.id);
    await recordWorkspaceAudit(tx, {
      workspaceId: session.workspaceId,
      actorId: actor.id,
      action: approved ? "tool.approved" : "tool.denied",
      target: row.tool,
      details: {
        session_id: sessionId,
        run_id: row.run_id,
        approval_id: row.id,
        risk: row.risk,
        reason: row.reason,
        args_edited: request.args !== undefined,
        always: request.always,
      },
    });
    return { approval: toApproval(decided[0] as ApprovalRow) };
  });
  if ("conflict" in outcome) {
    throw new AppError(
      APPROVAL_ERROR_CODES.decided,
      409,
      APPROVAL_MESSAGES.decided(outcome.conflict.status),
      { approval: outcome.conflict },
    );
  }
  return outcome.approval;
}

import { createHash } from "node:crypto";
import type { TApprovalStatus, TToolApproval, TToolApprovalReason } from "@cohort/contracts";
import { isoTimestamp, isoTimestampOrNull } from "../../db/client";

/** The tool_approvals table as queries return it; only this module's files read it. */
export interface ApprovalRow {
  id: string;
  run_id: string;
  session_id: string;
  call_id: string | null;
  step_id: string | null;
  role: string | null;
  tool_call_id: string;
  tool: string;
  title: string;
  server_name: string | null;
  risk: TToolApproval["risk"];
  args: unknown;
  reason: TToolApprovalReason;
  status: TApprovalStatus;
  created_at: Date | string;
  expires_at: Date | string;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | string | null;
  decided_args: unknown;
  always: boolean;
  note: string | null;
}

export const APPROVAL_COLUMNS =
  "id, run_id, session_id, call_id, step_id, role, tool_call_id, tool, title, server_name, risk, args, reason, status, created_at, expires_at, decided_by, decided_by_name, decided_at, decided_args, always, note";

export function toApproval(row: ApprovalRow): TToolApproval {
  return {
    id: row.id,
    run_id: row.run_id,
    session_id: row.session_id,
    call_id: row.call_id,
    step_id: row.step_id,
    role: row.role,
    tool_call_id: row.tool_call_id,
    tool: row.tool,
    title: row.title,
    server_name: row.server_name,
    risk: row.risk,
    args: row.args,
    reason: row.reason,
    status: row.status,
    created_at: isoTimestamp(row.created_at),
    expires_at: isoTimestamp(row.expires_at),
    decided_by: row.decided_by,
    decided_by_name: row.decided_by_name,
    decided_at: isoTimestampOrNull(row.decided_at),
    decided_args: row.decided_args,
    always: row.always,
    note: row.note,
  };
}

/** JSON with object keys sorted, so equal arguments hash alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * What identifies a call across a lane's re-run after a restart (decision 059): the same
 * tool with the same arguments in the same run and plan step finds the approval it asked for.
 */
export function argsHash(args: unknown): string {
  return createHash("sha256").update(canonical(args)).digest("hex");
}

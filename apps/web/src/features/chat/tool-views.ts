import type {
  TApprovalCall,
  TApprovalStatus,
  TToolApproval,
  TToolApprovalReason,
  TToolCallStatus,
  TToolFile,
} from "@cohort/contracts";

/**
 * A tool call as its lane shows it (the tool rows of decision 058): from `tool.call` while it runs,
 * `tool.approval` while it waits for a person, `tool.result` once done.
 */
export type ToolCallStatus = TToolCallStatus;

export interface ToolCallView {
  toolCallId: string;
  /** The lane's model call that asked for it. */
  callId: string;
  stepId: string | null;
  kind: "agent" | "critic" | "revision";
  tool: string;
  title: string;
  serverName: string | null;
  risk: TToolApproval["risk"];
  args: unknown;
  status: ToolCallStatus;
  durationMs: number | null;
  outputChars: number | null;
  truncated: boolean;
  credits: number | null;
  /** The start of the output (what the model saw, capped). */
  preview: string | null;
  error: string | null;
  /** The approval it waited for (decision 059), if it needed one. */
  approvalId: string | null;
  /** Who approved it, when a person did (shown on the row once the card is gone). */
  approvedBy: string | null;
  /** Files it wrote, each a download (run_code, decision 068). */
  files?: TToolFile[];
}

/** A request for approval as its card shows it. */
export interface ApprovalView extends TApprovalCall {
  id: string;
  toolCallId: string;
  callId: string | null;
  stepId: string | null;
  expiresAt: string;
  status: TApprovalStatus;
  byName: string | null;
  note: string | null;
  always: boolean;
  /** When it was answered (null: pending, or not known). */
  decidedAt: string | null;
}

export function approvalViewOf(approval: TToolApproval): ApprovalView {
  return {
    id: approval.id,
    toolCallId: approval.tool_call_id,
    callId: approval.call_id,
    stepId: approval.step_id,
    tool: approval.tool,
    title: approval.title,
    serverName: approval.server_name,
    risk: approval.risk,
    args: approval.decided_args ?? approval.args,
    reason: approval.reason,
    expiresAt: approval.expires_at,
    status: approval.status,
    byName: approval.decided_by_name,
    note: approval.note,
    always: approval.always,
    decidedAt: approval.decided_at,
  };
}

export const APPROVAL_REASON_TEXT: Record<TToolApprovalReason, string> = {
  policy: "This session asks before calls like this one.",
  untrusted:
    "This step has read text from outside (a page, a search result, a tool's answer): its calls that change or reach out always need your approval.",
};

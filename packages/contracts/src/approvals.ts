import { z } from "zod";
import { type TToolApprovalReason, ZToolApprovalReason, ZToolRisk } from "./tools";

/**
 * Approvals (decision 059): a tool call that needs a person's yes pauses its lane and waits
 * for a decision stored in the database, so the pause survives a reload, a restart and
 * another instance taking the run over.
 */

export const APPROVAL_STATUSES = ["pending", "approved", "denied", "expired"] as const;
export const ZApprovalStatus = z.enum(APPROVAL_STATUSES);
export type TApprovalStatus = z.infer<typeof ZApprovalStatus>;

/** The largest arguments object a person may send back when editing a call (JSON chars). */
export const APPROVAL_ARGS_MAX_CHARS = 32_000;

const ZApprovalArgs = z.record(z.string(), z.unknown());

export const ZToolApproval = z.object({
  id: z.string(),
  run_id: z.string(),
  session_id: z.string(),
  /** The lane's model call that asked for the tool. */
  call_id: z.string().nullable(),
  /** The plan step of the lane (null for the Critic). */
  step_id: z.string().nullable(),
  role: z.string().nullable(),
  tool_call_id: z.string(),
  tool: z.string(),
  title: z.string(),
  /** The MCP server the tool comes from; null for a built-in tool. */
  server_name: z.string().nullable(),
  risk: ZToolRisk,
  /** The arguments the model asked with. */
  args: z.unknown(),
  reason: ZToolApprovalReason,
  status: ZApprovalStatus,
  created_at: z.string(),
  expires_at: z.string(),
  decided_by: z.string().nullable(),
  decided_by_name: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** The arguments the call ran with when a person edited them (null: as asked). */
  decided_args: z.unknown().nullable(),
  /** The person also chose "Always allow this tool in this session". */
  always: z.boolean(),
  /** Said to the model and shown in the lane for a denied or expired call. */
  note: z.string().nullable(),
});
export type TToolApproval = z.infer<typeof ZToolApproval>;

/** The call a person is asked about, in the words the server stores and the card shows. */
export interface TApprovalCall {
  tool: string;
  title: string;
  serverName: string | null;
  risk: TToolApproval["risk"];
  args: unknown;
  reason: TToolApprovalReason;
}

export const ZDecideApprovalRequest = z.object({
  decision: z.enum(["approve", "deny"]),
  /** Edited arguments (approve only): the call runs with these instead of the model's. */
  args: ZApprovalArgs.optional(),
  /** "Always allow this tool in this session": later calls of it are not asked about. */
  always: z.boolean().default(false),
});
export type TDecideApprovalRequest = z.input<typeof ZDecideApprovalRequest>;

export const ZToolApprovalResponse = z.object({ approval: ZToolApproval });
export type TToolApprovalResponse = z.infer<typeof ZToolApprovalResponse>;

export const ZToolApprovalsResponse = z.object({
  /** The session's approvals still waiting for a decision, oldest first. */
  approvals: z.array(ZToolApproval),
  /** Tools a person chose to always allow in this session. */
  always_allowed: z.array(z.string()),
});
export type TToolApprovalsResponse = z.infer<typeof ZToolApprovalsResponse>;

/**
 * A call denied in a run nobody could answer (public API, MCP run_team): the answer lists
 * them, so the caller hears why the team did not act (decision 059).
 */
export const ZDeniedToolCall = z.object({
  tool: z.string(),
  /** Why it was denied, as the model heard it. */
  note: z.string(),
});
export type TDeniedToolCall = z.infer<typeof ZDeniedToolCall>;

export const APPROVAL_ERROR_CODES = {
  /** The approval was decided (or expired) already. */
  decided: "approval_decided",
  argsTooLarge: "approval_args_too_large",
  /** `never_ask` is for owners and admins of the workspace. */
  policyForbidden: "approval_policy_forbidden",
} as const;

export const APPROVAL_MESSAGES = {
  notFound: "This approval does not exist.",
  decided: (status: TApprovalStatus) =>
    status === "expired"
      ? "This request expired before anyone answered it: the call was denied."
      : `This request was ${status} already.`,
  argsTooLarge: `The edited arguments are too long (at most ${APPROVAL_ARGS_MAX_CHARS.toLocaleString("en-US")} characters).`,
  argsOnlyWhenApproving: "Edited arguments go with an approval, not a denial.",
  policyForbidden:
    "Only an owner or admin of the workspace may let tools run without asking for approval.",
  /** What the model and the lane hear for each way a call is refused. */
  deniedNote: (by: string) => `Denied by ${by}: the tool was not called.`,
  expiredNote: (seconds: number) =>
    `Nobody answered the approval request within ${formatSeconds(seconds)}: the call was denied and the tool was not called.`,
  unattendedNote:
    "This call needs a person's approval, and runs started through the API or MCP cannot ask for one: the call was denied and the tool was not called. Run the task in the web app to approve it, or allow the tool in the session's settings.",
} as const;

function formatSeconds(seconds: number): string {
  if (seconds % 60 === 0 && seconds >= 60) {
    const minutes = seconds / 60;
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}

export const APPROVAL_ROUTES = {
  list: (sessionId: string) => `/api/sessions/${sessionId}/approvals`,
  decide: (sessionId: string, approvalId: string) =>
    `/api/sessions/${sessionId}/approvals/${approvalId}`,
} as const;

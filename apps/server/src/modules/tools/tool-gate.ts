import type { TRunEventOf, TToolApprovalReason, TToolPolicy } from "@cohort/contracts";
import type { ToolContext, ToolDefinition } from "./tool-definition";

// The approval hook (decision 058): before the loop executes a tool call it
// asks the gate (looked up per call: `app.tools.gate`). The approvals module implements the
// asking and sets its gate with `app.tools.setGate(gate)`; the default gate here decides
// what needs no person and denies the rest with "approval needed".

/** The ids of the lane and the call, as the tool.* events carry them. */
export interface ToolGateIds {
  /** The lane's model call (run step id). */
  call_id: string;
  /** The plan step. */
  step_id: string;
  kind: "agent" | "critic" | "revision";
  /** This tool call (= ctx.callId). */
  tool_call_id: string;
  tool: string;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The approval events as a gate emits them: the run's log adds seq, session, run and time. */
export type ToolApprovalEventInput = DistributiveOmit<
  TRunEventOf<"tool.approval"> | TRunEventOf<"tool.approval.decided">,
  "seq" | "session_id" | "run_id" | "at"
>;

export interface ToolGateRequest {
  /** runId, sessionId, workspaceId, userId, stepId, role, callId (the tool call), signal. */
  ctx: ToolContext;
  /** name, title, risk, source (server name for MCP tools). */
  tool: ToolDefinition;
  /** The model's arguments (already checked against the tool's input schema). */
  args: unknown;
  /** The lane has read untrusted tool output: write/external calls always need approval. */
  laneTainted: boolean;
  /** The session's approval policy (the gate need not read the session). */
  policy: TToolPolicy;
  /** The ids the approval events carry. */
  ids: ToolGateIds;
  /**
   * How the run came: "web" from the app; "api" from the public API or MCP run_team, where
   * nobody can approve (a call that needs approval is denied, and the note says so).
   */
  channel: "web" | "api";
  /** Appends an event to the run's log (numbered, stored, sent to the session's room). */
  emit(event: ToolApprovalEventInput): Promise<void>;
}

/**
 * The gate's answer. Approved: the tool runs with `args` (possibly edited). Denied: the tool
 * is not called; `note` is the tool.result's error text and what the model hears.
 * `by`: the person who decided; null when nobody did (the policy, the time limit).
 * While a gate waits the lane holds no open model-call hold; when `ctx.signal` aborts, the
 * gate rejects with the signal's reason.
 */
export interface ToolGateDecision {
  decision: "approved" | "denied";
  args: unknown;
  by: { userId: string; name: string } | null;
  note?: string;
}

export interface ToolGate {
  authorize(request: ToolGateRequest): Promise<ToolGateDecision>;
}

/** The note of a call that needs a person's approval where no approvals module can ask. */
export const APPROVAL_NEEDED = "approval needed";

/**
 * Whether a call needs a person's approval: the untrusted-content rule first (a tainted lane's
 * write/external calls always do, whatever the policy), then the session's policy.
 */
export function approvalReason(
  tool: Pick<ToolDefinition, "risk">,
  policy: TToolPolicy,
  laneTainted: boolean,
): TToolApprovalReason | null {
  if (laneTainted && (tool.risk === "write" || tool.risk === "external")) return "untrusted";
  if (policy === "ask_all") return "policy";
  if (policy === "ask_risky" && tool.risk !== "read") return "policy";
  return null;
}

/**
 * The gate without an approvals module (and the path of calls that need nobody): approves
 * what needs no approval, denies the rest with "approval needed". Never approves a
 * write/external call after untrusted text.
 */
export const defaultToolGate: ToolGate = {
  async authorize({ tool, args, laneTainted, policy }) {
    if (approvalReason(tool, policy, laneTainted) === null) {
      return { decision: "approved", args, by: null };
    }
    return { decision: "denied", args, by: null, note: APPROVAL_NEEDED };
  },
};

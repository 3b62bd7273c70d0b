import type { TToolApprovalReason, TToolPolicy } from "@cohort/contracts";
import type { ToolContext, ToolDefinition } from "./tool-definition";

// The approval hook (issue 30 §5–6, decision 058): before the loop executes a tool call it
// asks the gate. The approvals module (tools-approvals) implements the asking; the default
// gate here decides what needs no person and denies the rest with "approval needed".

/** The ids a gate needs to emit the lane's approval events (tool.approval / .decided). */
export interface ToolGateLane {
  /** The lane's model call (run step id) and its plan step. */
  callId: string;
  stepId: string;
  kind: "agent" | "critic" | "revision";
}

/** What the gate may emit: the approval events, numbered and stored by the run's log. */
export type ToolApprovalEventInput =
  | {
      type: "tool.approval";
      approval_id: string;
      reason: TToolApprovalReason;
      expires_at: string;
    }
  | {
      type: "tool.approval.decided";
      approval_id: string;
      decision: "approved" | "denied" | "expired";
      by_user_id: string | null;
      by_name: string | null;
      args: unknown;
      always: boolean;
    };

export interface ToolGateRequest {
  ctx: ToolContext;
  tool: ToolDefinition;
  /** The arguments the model gave (already checked against the tool's input schema). */
  args: unknown;
  /** The lane has read untrusted tool output: write/external calls always need approval. */
  laneTainted: boolean;
  /** The session's approval policy. */
  policy: TToolPolicy;
  lane: ToolGateLane;
  /**
   * How the call came: "run" from the web app; "api" from the public API or MCP run_team,
   * where nobody can approve (a call that needs approval is denied, saying so).
   */
  channel: "run" | "api";
  /** Emits an approval event in this lane (the loop adds the ids, tool, args, risk, source). */
  emit(event: ToolApprovalEventInput): Promise<void>;
}

/** Who decided: the policy (no person asked), a person, or the time limit. */
export type ToolGateDecider =
  | { kind: "policy" }
  | { kind: "user"; userId: string; name: string }
  | { kind: "expired" };

export type ToolGateDecision =
  | { decision: "approved"; args: unknown; by: ToolGateDecider }
  | { decision: "denied"; reason: string; by: ToolGateDecider };

export interface ToolGate {
  authorize(request: ToolGateRequest): Promise<ToolGateDecision>;
}

/** The user-facing reason a call is denied when it needs a person and none can be asked. */
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
      return { decision: "approved", args, by: { kind: "policy" } };
    }
    return { decision: "denied", reason: APPROVAL_NEEDED, by: { kind: "policy" } };
  },
};

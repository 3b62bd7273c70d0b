import { APPROVAL_MESSAGES, type TToolSourceView } from "@cohort/contracts";
import type { Db } from "../../db/client";
import type { ApprovalWaiters } from "../../platform/approval-waiters";
import { waitUntilDecided } from "../../platform/durable-pause";
import type { ToolDefinition } from "../tools/tool-definition";
import {
  approvalReason,
  type ToolGate,
  type ToolGateDecision,
  type ToolGateRequest,
} from "../tools/tool-gate";
import type { ApprovalRow } from "./approval-row";
import {
  attachApprovalToCall,
  expireApproval,
  findUnusedApproval,
  getApproval,
  insertApproval,
  markApprovalUsed,
} from "./approval-store";
import { readSessionToolRules } from "./session-tool-rules";

export interface ApprovalGateDeps {
  db: Db;
  waiters: ApprovalWaiters;
  timeoutMs: number;
}

function sourceView(tool: ToolDefinition): TToolSourceView {
  return tool.source.kind === "mcp"
    ? { kind: "mcp", server_id: tool.source.serverId, server_name: tool.source.serverName }
    : { kind: "builtin" };
}

function expiredNote(row: ApprovalRow): string {
  const seconds = Math.round(
    (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 1000,
  );
  return APPROVAL_MESSAGES.expiredNote(seconds);
}

/**
 * The tool gate of the approvals module (decision 059). A call that needs nobody goes on at
 * once. One that needs a person: denied at once where nobody can answer (a run started
 * through the public API or MCP); otherwise it finds the request an earlier life of this lane
 * made for the same call (a resumed run never asks twice) or stores a new one, emits
 * `tool.approval`, and waits — only this lane — for a decision made by anyone on any
 * instance, or for its expiry, then emits `tool.approval.decided`.
 */
export function createApprovalGate(deps: ApprovalGateDeps): ToolGate {
  return {
    async authorize(request: ToolGateRequest): Promise<ToolGateDecision> {
      const { ctx, tool, args, ids } = request;
      const rules = await readSessionToolRules(deps.db, ctx.sessionId);
      let reason = approvalReason(tool, request.policy, request.laneTainted);
      // "Always allow" answers the policy's question, never the untrusted-content rule's.
      if (reason === "policy" && rules.alwaysAllowed.has(tool.name)) reason = null;
      if (reason === null) return { decision: "approved", args, by: null };
      if (request.channel === "api" || rules.unattended !== null) {
        return { decision: "denied", args, by: null, note: APPROVAL_MESSAGES.unattendedNote };
      }
      const call = {
        runId: ctx.runId,
        stepId: ids.step_id,
        role: ctx.role,
        tool: tool.name,
        args,
      };
      let row = await findUnusedApproval(deps.db, call);
      if (row) {
        await attachApprovalToCall(deps.db, row.id, {
          callId: ids.call_id,
          toolCallId: ids.tool_call_id,
        });
      } else {
        row = await insertApproval(deps.db, {
          ...call,
          sessionId: ctx.sessionId,
          callId: ids.call_id,
          toolCallId: ids.tool_call_id,
          title: tool.title,
          serverName: tool.source.kind === "mcp" ? tool.source.serverName : null,
          risk: tool.risk,
          reason,
          expiresAt: new Date(Date.now() + deps.timeoutMs),
        });
      }
      if (row.status === "pending") {
        await request.emit({
          type: "tool.approval",
          ...ids,
          approval_id: row.id,
          args: row.args,
          risk: tool.risk,
          source: sourceView(tool),
          reason: row.reason,
          expires_at: new Date(row.expires_at).toISOString(),
        });
      }
      const decided = await waitForDecision(deps, row, ctx.signal);
      await markApprovalUsed(deps.db, decided.id);
      const approved = decided.status === "approved";
      const runArgs = approved && decided.decided_args !== null ? decided.decided_args : args;
      const by = decided.decided_by
        ? { userId: decided.decided_by, name: decided.decided_by_name ?? "" }
        : null;
      const note = approved
        ? null
        : (decided.note ?? APPROVAL_MESSAGES.deniedNote(decided.decided_by_name ?? "a member"));
      await request.emit({
        type: "tool.approval.decided",
        ...ids,
        approval_id: decided.id,
        decision: decided.status === "pending" ? "expired" : decided.status,
        by_user_id: decided.decided_by,
        by_name: decided.decided_by_name,
        args: runArgs,
        always: decided.always,
        note,
      });
      return approved
        ? { decision: "approved", args: runArgs, by }
        : { decision: "denied", args, by, note: note ?? "" };
    },
  };
}

/** Resolves with the request once it is no longer pending; rejects when the lane stops. */
async function waitForDecision(
  deps: ApprovalGateDeps,
  start: ApprovalRow,
  signal: AbortSignal,
): Promise<ApprovalRow> {
  const row = await waitUntilDecided({
    id: start.id,
    waiters: deps.waiters,
    signal,
    read: () => getApproval(deps.db, start.id),
    expire: async (pending) => {
      await expireApproval(deps.db, pending.id, expiredNote(pending));
    },
  });
  // Gone with its run or session: nobody can answer any more.
  return row ?? { ...start, status: "expired", note: expiredNote(start) };
}

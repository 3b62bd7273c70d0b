import type { TExportedToolCall, TRunEvent, TToolApprovalReason } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/**
 * A session's tool calls by run id, in order (decision 058), from their stored events: the
 * call, its approval request and answer (so a reload shows the answered card, decision 076),
 * its result and the files it wrote. A call without a result (its run was cut) stays
 * "running". Imported runs have no events, so no tool calls.
 */
export async function listToolCalls(
  db: Queryable,
  sessionId: string,
): Promise<Map<string, TExportedToolCall[]>> {
  const { rows } = await db.query<{ run_id: string; data: TRunEvent | string }>(
    `SELECT run_id, data FROM run_events
     WHERE session_id = $1 AND type IN ('tool.call', 'tool.approval', 'tool.approval.decided', 'tool.result')
     ORDER BY seq`,
    [sessionId],
  );
  const byRun = new Map<string, TExportedToolCall[]>();
  const byId = new Map<string, TExportedToolCall>();
  // The request's reason, by tool call: its answer comes in a later event.
  const reasons = new Map<string, TToolApprovalReason>();
  for (const row of rows) {
    const event = (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as TRunEvent;
    if (event.type === "tool.call") {
      const call: TExportedToolCall = {
        tool_call_id: event.tool_call_id,
        call_id: event.call_id,
        step_id: event.step_id,
        tool: event.tool,
        title: event.title,
        risk: event.risk,
        source: event.source,
        args: event.args,
        status: "running",
        duration_ms: null,
        output_chars: null,
        truncated: false,
        credits: 0,
        text_preview: "",
        sources: [],
        files: [],
        error: null,
        approval: null,
      };
      byId.set(call.tool_call_id, call);
      byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), call]);
      continue;
    }
    if (event.type === "tool.approval") {
      reasons.set(event.tool_call_id, event.reason);
      continue;
    }
    if (event.type !== "tool.approval.decided" && event.type !== "tool.result") continue;
    const call = byId.get(event.tool_call_id);
    if (!call) continue;
    if (event.type === "tool.approval.decided") {
      const reason = reasons.get(event.tool_call_id);
      call.approval = {
        decision: event.decision,
        by_name: event.by_name,
        at: event.at,
        id: event.approval_id,
        ...(reason ? { reason } : {}),
        note: event.note,
        always: event.always,
      };
      call.args = event.args;
    } else {
      call.status = event.status;
      call.duration_ms = event.duration_ms;
      call.output_chars = event.output_chars;
      call.truncated = event.truncated;
      call.credits = event.credits;
      call.text_preview = event.text_preview;
      call.sources = event.sources;
      call.files = event.files;
      call.error = event.error;
    }
  }
  return byRun;
}

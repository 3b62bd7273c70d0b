import type { TRunEvent, TToolApproval } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { at, eventStream, R, S } from "../../test-support/run-events";
import {
  applyApprovalDecision,
  applyRunEvents,
  EMPTY_CONVERSATION,
  mergePendingApprovals,
  TOOL_CUT_OFF,
} from "./run-state";

const ref = { model: "coquick", model_name: "CoQuick", provider: "openai", simulated: true };
const { ev } = eventStream();
const ids = (callId: string, toolCallId: string) => ({
  call_id: callId,
  step_id: "s2",
  kind: "agent" as const,
  tool_call_id: toolCallId,
  tool: "mcp__notes__create_note",
});
const source = { kind: "mcp" as const, server_id: "srv1", server_name: "Notes" };
const args = { title: "Launch", body: "Plan" };

/** The Coder's lane `callId` starts, calls the notes tool as `toolCallId`, and is asked to approve it. */
const laneAsking = (callId: string, toolCallId: string): [TRunEvent, TRunEvent, TRunEvent] => [
  ev("agent.started", {
    call_id: callId,
    step_id: "s2",
    kind: "agent",
    role: "coder",
    task: "Create a note",
    ...ref,
  }),
  ev("tool.call", {
    ...ids(callId, toolCallId),
    title: "Create a note",
    source,
    risk: "write",
    args,
    status: "running",
  }),
  ev("tool.approval", {
    ...ids(callId, toolCallId),
    approval_id: "a1",
    args,
    risk: "write",
    source,
    reason: "policy",
    expires_at: at(59),
  }),
];
const [started, call, asked] = laneAsking("c2", "t1");

describe("tool calls and approvals in the run state", () => {
  it("a call waits with its card, is approved with edited arguments, and ends with its result", () => {
    let state = applyRunEvents(EMPTY_CONVERSATION, [started, call, asked]);
    let run = state.runs[R];
    expect(run?.toolCalls).toMatchObject([
      {
        toolCallId: "t1",
        callId: "c2",
        title: "Create a note",
        serverName: "Notes",
        risk: "write",
        status: "awaiting_approval",
        approvalId: "a1",
      },
    ]);
    expect(run?.approvals).toMatchObject([
      { id: "a1", status: "pending", title: "Create a note", reason: "policy", args },
    ]);
    const edited = { title: "Launch v2", body: "Plan" };
    state = applyRunEvents(state, [
      ev("tool.approval.decided", {
        ...ids("c2", "t1"),
        approval_id: "a1",
        decision: "approved",
        by_user_id: "u1",
        by_name: "Ann",
        args: edited,
        always: true,
        note: null,
      }),
      ev("tool.result", {
        ...ids("c2", "t1"),
        status: "completed",
        duration_ms: 42,
        output_chars: 27,
        truncated: false,
        credits: 0,
        text_preview: "Created note n3: Launch v2",
        sources: [],
        files: [],
        error: null,
      }),
    ]);
    run = state.runs[R];
    expect(run?.approvals[0]).toMatchObject({ status: "approved", byName: "Ann", always: true });
    expect(run?.toolCalls[0]).toMatchObject({
      status: "completed",
      args: edited,
      durationMs: 42,
      outputChars: 27,
      credits: 0,
      preview: "Created note n3: Launch v2",
      error: null,
    });
  });

  it("a denied call shows the note; a resumed lane's repeat of the request keeps one card", () => {
    let state = applyRunEvents(EMPTY_CONVERSATION, [started, call, asked]);
    state = applyRunEvents(state, [
      ev("run.resumed", { from_status: "running", reused_steps: 1, attempt: 1 }),
    ]);
    expect(state.runs[R]?.toolCalls[0]).toMatchObject({ status: "failed", error: TOOL_CUT_OFF });
    state = applyRunEvents(state, [
      ...laneAsking("c9", "t9"),
      ev("tool.approval.decided", {
        ...ids("c9", "t9"),
        approval_id: "a1",
        decision: "denied",
        by_user_id: "u1",
        by_name: "Ann",
        args,
        always: false,
        note: "Denied by Ann: the tool was not called.",
      }),
    ]);
    const run = state.runs[R];
    expect(run?.approvals).toHaveLength(1);
    expect(run?.approvals[0]).toMatchObject({
      id: "a1",
      callId: "c9",
      toolCallId: "t9",
      status: "denied",
      note: "Denied by Ann: the tool was not called.",
    });
    expect(run?.toolCalls.map((c) => [c.toolCallId, c.status])).toEqual([
      ["t1", "failed"],
      ["t9", "denied"],
    ]);
  });

  it("pending requests read on load join the run once; a decision made on the page shows at once", () => {
    const state = applyRunEvents(EMPTY_CONVERSATION, [started, call, asked]);
    const stored: TToolApproval = {
      id: "a1",
      run_id: R,
      session_id: S,
      call_id: "c2",
      step_id: "s2",
      role: "coder",
      tool_call_id: "t1",
      tool: "mcp__notes__create_note",
      title: "Create a note",
      server_name: "Notes",
      risk: "write",
      args,
      reason: "policy",
      status: "pending",
      created_at: at(3),
      expires_at: at(59),
      decided_by: null,
      decided_by_name: null,
      decided_at: null,
      decided_args: null,
      always: false,
      note: null,
    };
    expect(mergePendingApprovals(state, [stored])).toBe(state);
    const bare = applyRunEvents(EMPTY_CONVERSATION, [started]);
    expect(mergePendingApprovals(bare, [stored]).runs[R]?.approvals).toMatchObject([
      { id: "a1", status: "pending" },
    ]);
    const decided = applyApprovalDecision(state, {
      ...stored,
      status: "denied",
      decided_by: "u2",
      decided_by_name: "Bo",
      note: "Denied by Bo: the tool was not called.",
    });
    expect(decided.runs[R]?.approvals[0]).toMatchObject({ status: "denied", byName: "Bo" });
  });
});

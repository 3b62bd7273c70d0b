import {
  APPROVAL_MESSAGES,
  approvalNeeded,
  type TApprovalReason,
  type TToolApproval,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { type ApprovalRow, toApproval } from "./approval-row";
import {
  attachApprovalToCall,
  expireApproval,
  findUnusedApproval,
  getApproval,
  insertApproval,
  markApprovalUsed,
} from "./approval-store";
import type { ApprovalWaiters } from "./approval-waiters";
import { readSessionToolRules } from "./session-tool-rules";

/**
 * A waiting lane also looks at its row this often: the wake through Redis (or in this
 * process) is the fast path, this is what makes a lost wake or an instance without Redis
 * still see the decision (decision 059).
 */
const POLL_MS = 2_000;

export type ApprovalPolicy = "ask_all" | "ask_risky" | "never_ask";

/** One tool call the loop asks about. */
export interface ApprovalCall {
  runId: string;
  sessionId: string;
  stepId: string | null;
  role: string | null;
  /** The lane's model call that asked for the tool. */
  callId: string | null;
  toolCallId: string;
  tool: { name: string; title: string; risk: TToolApproval["risk"]; serverName: string | null };
  args: Record<string, unknown>;
  laneTainted: boolean;
  policy: ApprovalPolicy;
  signal: AbortSignal;
}

/** What the gate tells the run's event log (the loop maps these onto its run events). */
export type ApprovalEvent =
  | {
      type: "tool.approval";
      approval: TToolApproval;
    }
  | {
      type: "tool.approval.decided";
      approval: TToolApproval;
    };

export type ApprovalOutcome =
  | {
      decision: "approved";
      args: Record<string, unknown>;
      by: { userId: string; name: string } | null;
      approval: TToolApproval | null;
    }
  | {
      decision: "denied";
      args: Record<string, unknown>;
      by: { userId: string; name: string } | null;
      note: string;
      approval: TToolApproval | null;
    };

export interface ApprovalDeps {
  db: Db;
  waiters: ApprovalWaiters;
  timeoutMs: number;
}

/**
 * The gate's work for one call (decision 059): decides whether it needs a person, and if so
 * finds the request an earlier life of this lane made for it (a resumed run never asks
 * twice) or stores a new one, tells the run (`tool.approval`), and waits for its decision —
 * made by anyone, on any instance — or its expiry. Only this lane waits; the others go on.
 */
export async function awaitApproval(
  deps: ApprovalDeps,
  call: ApprovalCall,
  emit: (event: ApprovalEvent) => void | Promise<void>,
): Promise<ApprovalOutcome> {
  const rules = await readSessionToolRules(deps.db, call.sessionId);
  const reason: TApprovalReason | null = approvalNeeded({
    policy: call.policy,
    risk: call.tool.risk,
    laneTainted: call.laneTainted,
    alwaysAllowed: rules.alwaysAllowed.has(call.tool.name),
  });
  if (reason === null) return { decision: "approved", args: call.args, by: null, approval: null };
  if (rules.unattended !== null) {
    return {
      decision: "denied",
      args: call.args,
      by: null,
      note: APPROVAL_MESSAGES.unattendedNote,
      approval: null,
    };
  }
  let row = await findUnusedApproval(deps.db, {
    runId: call.runId,
    stepId: call.stepId,
    role: call.role,
    tool: call.tool.name,
    args: call.args,
  });
  if (row) {
    await attachApprovalToCall(deps.db, row.id, call);
    row = { ...row, call_id: call.callId, tool_call_id: call.toolCallId };
  } else {
    row = await insertApproval(deps.db, {
      runId: call.runId,
      sessionId: call.sessionId,
      callId: call.callId,
      stepId: call.stepId,
      role: call.role,
      toolCallId: call.toolCallId,
      tool: call.tool.name,
      title: call.tool.title,
      serverName: call.tool.serverName,
      risk: call.tool.risk,
      args: call.args,
      reason,
      expiresAt: new Date(Date.now() + deps.timeoutMs),
    });
  }
  if (row.status === "pending") await emit({ type: "tool.approval", approval: toApproval(row) });
  const decided = await waitForDecision(deps, row, call.signal);
  await markApprovalUsed(deps.db, decided.id);
  const approval = toApproval(decided);
  await emit({ type: "tool.approval.decided", approval });
  const by = decided.decided_by
    ? { userId: decided.decided_by, name: decided.decided_by_name ?? "" }
    : null;
  if (decided.status === "approved") {
    return { decision: "approved", args: decided.decided_args ?? call.args, by, approval };
  }
  return {
    decision: "denied",
    args: call.args,
    by,
    note: decided.note ?? APPROVAL_MESSAGES.deniedNote(decided.decided_by_name ?? "someone"),
    approval,
  };
}

function expiredNote(row: ApprovalRow): string {
  const seconds = Math.round(
    (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 1000,
  );
  return APPROVAL_MESSAGES.expiredNote(seconds);
}

/** Resolves with the request once it is no longer pending; rejects when the lane stops. */
async function waitForDecision(
  deps: ApprovalDeps,
  start: ApprovalRow,
  signal: AbortSignal,
): Promise<ApprovalRow> {
  let row: ApprovalRow | null = start;
  for (;;) {
    signal.throwIfAborted();
    // Listen before looking, so a decision made in between wakes this look's wait.
    const wake = deps.waiters.wake(start.id, signal);
    try {
      row = await getApproval(deps.db, start.id);
      // Gone with its session or run: nobody can answer any more.
      if (!row) return { ...start, status: "expired", note: expiredNote(start) };
      if (row.status !== "pending") return row;
      const left = new Date(row.expires_at).getTime() - Date.now();
      if (left <= 0) {
        await expireApproval(deps.db, row.id, expiredNote(row));
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        wake.promise,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.min(left, POLL_MS));
        }),
      ]);
      clearTimeout(timer);
    } finally {
      wake.cancel();
    }
  }
}

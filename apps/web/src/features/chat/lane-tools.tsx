import type { TToolApproval } from "@cohort/contracts";
import { createContext, type ReactNode, useContext } from "react";
import { ApprovalCard } from "./approval-card";
import type { LaneView, RunView } from "./run-state";
import { ToolCallList } from "./tool-call-row";

/** Who may answer approval requests on this page; null where nobody can (a share link). */
export interface ApprovalActions {
  sessionId: string;
  /** Members and up; viewers see the cards without their buttons. */
  canDecide: boolean;
  onDecided(approval: TToolApproval): void;
}

export const ApprovalActionsContext = createContext<ApprovalActions | null>(null);
const RunToolsContext = createContext<RunView | null>(null);

/** The run of the lanes under `RunToolsProvider` (Steer and Skip need it, decision 069). */
export function useLanesRun(): RunView | null {
  return useContext(RunToolsContext);
}

/** Gives the lanes under it their run's tool calls and approval requests. */
export function RunToolsProvider({ run, children }: { run: RunView; children: ReactNode }) {
  return <RunToolsContext.Provider value={run}>{children}</RunToolsContext.Provider>;
}

/**
 * Which lane a tool event belongs to: the lane of its model call; else (a lane whose turns
 * are several calls) the newest lane of the same step and kind.
 */
function laneOf(run: RunView, callId: string | null, stepId: string | null, kind?: string) {
  const exact = run.lanes.find((l) => l.callId === callId);
  if (exact) return exact.callId;
  return run.lanes.findLast((l) => l.stepId === stepId && (kind === undefined || l.kind === kind))
    ?.callId;
}

/** The tool calls of one lane, and the approval cards of those that wait (decision 059). */
export function LaneTools({ lane }: { lane: LaneView }) {
  const run = useContext(RunToolsContext);
  const actions = useContext(ApprovalActionsContext);
  if (!run) return null;
  const calls = run.toolCalls.filter(
    (c) => laneOf(run, c.callId, c.stepId, c.kind) === lane.callId,
  );
  // Answered cards stay, with who answered: the decision is part of the lane's story.
  const approvals = run.approvals.filter((a) => laneOf(run, a.callId, a.stepId) === lane.callId);
  if (calls.length === 0 && approvals.length === 0) return null;
  return (
    <div data-testid="lane-tools">
      <ToolCallList calls={calls} />
      {approvals.map((approval) => (
        <ApprovalCard
          key={approval.id}
          sessionId={actions?.sessionId ?? run.id}
          approval={approval}
          canDecide={actions?.canDecide ?? false}
          onDecided={(decided) => actions?.onDecided(decided)}
        />
      ))}
    </div>
  );
}

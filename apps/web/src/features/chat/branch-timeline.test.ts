import type { TChatMessage, TRunEvent } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { at, eventStream, lane, S } from "../../test-support/run-events";
import { type BranchTurn, branchTimeline, createBranchTimeline } from "./branch-timeline";
import { applyRunEvents, type ConversationState, EMPTY_CONVERSATION } from "./run-state";

const ref = { model: "coquick", model_name: "CoQuick", provider: "openai", simulated: true };

/** One run of one lane and an answer, its text streamed in pieces, as run `runId`. */
function runEvents(runId: string, from: number, parentRunId: string | null): TRunEvent[] {
  const stream = eventStream();
  stream.seq = from;
  const question: TChatMessage = {
    id: `${runId}-question`,
    session_id: S,
    role: "user",
    content: `Question of ${runId}`,
    run_id: runId,
    created_at: at(from),
    parent_run_id: parentRunId,
  };
  const own = (event: TRunEvent): TRunEvent => ({ ...event, run_id: runId });
  return [
    stream.ev("run.started", { message: question, mode: "automatic", coordinator_model: "co" }),
    stream.ev("agent.started", {
      ...lane(`${runId}-c1`, "s1"),
      role: "coder",
      task: "Code",
      ...ref,
    }),
    stream.ev("agent.delta", { ...lane(`${runId}-c1`, "s1"), text: "First " }),
    stream.ev("agent.delta", { ...lane(`${runId}-c1`, "s1"), text: "draft." }),
    stream.done(`${runId}-c1`, "s1", "coder"),
    stream.ev("final.delta", { call_id: `${runId}-c2`, text: "The " }),
    stream.ev("final.delta", { call_id: `${runId}-c2`, text: "answer." }),
    stream.ev("run.completed", {
      message: { ...question, id: `${runId}-answer`, role: "assistant", content: "The answer." },
      critic_score: null,
      total_credits: 0,
      input_tokens: 1,
      output_tokens: 1,
      duration_ms: 1_000,
      synthesis: { call_id: `${runId}-c2`, ...ref, credits: 0 },
    }),
  ].map(own);
}

describe("createBranchTimeline", () => {
  it("gives branchTimeline's turns after every event, the same objects for turns a delta left alone", () => {
    const timeline = createBranchTimeline();
    const events = [...runEvents("run-1", 0, null), ...runEvents("run-2", 20, "run-1")];
    let state: ConversationState = EMPTY_CONVERSATION;
    let shown: BranchTurn[] = [];
    let kept = 0;
    const picks = {};
    for (const event of events) {
      const before = state;
      state = applyRunEvents(state, [event]);
      const turns = timeline(state, picks);
      expect(turns).toEqual(branchTimeline(state, picks));
      for (const turn of turns) {
        const old = shown.find((t) => t.message.id === turn.message.id);
        const untouched = turn.runs.every((run) => before.runs[run.id] === state.runs[run.id]);
        if (old && untouched && before.messages === state.messages) {
          expect(turn).toBe(old);
          kept++;
        }
      }
      shown = turns;
    }
    // The first run's turn stayed as it was while the second run streamed.
    expect(kept).toBeGreaterThan(0);
    expect(timeline(state, picks).map((turn) => turn.run?.final?.text)).toEqual([
      "The answer.",
      "The answer.",
    ]);
  });

  it("walks the session again when the versions picked or the page's forks change", () => {
    const timeline = createBranchTimeline();
    const state = applyRunEvents(EMPTY_CONVERSATION, [
      ...runEvents("run-1", 0, null),
      ...runEvents("run-2", 20, "run-1"),
    ]);
    expect(timeline(state, {})).toEqual(branchTimeline(state, {}));
    const picks = { "run-1": 1 };
    expect(timeline(state, picks)).toEqual(branchTimeline(state, picks));
    const forks = {
      "run-2": {
        from_run_id: "run-1",
        step_id: "s1",
        model: "co",
        instructions: null,
        rest: false,
        rerun_steps: [],
      },
    };
    const forked = timeline(state, picks, forks);
    expect(forked).toEqual(branchTimeline(state, picks, forks));
    expect(forked[1]?.run?.fork?.from_run_id).toBe("run-1");
  });
});

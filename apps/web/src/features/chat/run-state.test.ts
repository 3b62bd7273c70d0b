import type {
  TChatMessage,
  TRun,
  TRunEvent,
  TRunPlanView,
  TRunStep,
  TSession,
} from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { at, eventStream, lane, R, S } from "../../test-support/run-events";
import {
  activeRunOf,
  addSentMessage,
  answersWith,
  applyRunEvents,
  conversationFromDetail,
  EMPTY_CONVERSATION,
  firstLoadedTurn,
  mergeEarlierRuns,
  planStepState,
  type RunView,
  rerunGoing,
  rerunReviewOf,
  stepVersions,
  TOOL_STOPPED_WITH_RUN,
  timelineOf,
} from "./run-state";

const ref = { model: "coquick", model_name: "CoQuick", provider: "openai", simulated: true };

const userMessage: TChatMessage = {
  id: "m-user",
  session_id: S,
  role: "user",
  content: "Build a landing page",
  run_id: R,
  created_at: at(0),
};
const answer: TChatMessage = {
  id: "m-answer",
  session_id: S,
  role: "assistant",
  content: "## Summary\n\nDone.",
  run_id: R,
  created_at: at(30),
};

const plan: TRunPlanView = {
  mode: "automatic",
  rationale: "Two drafts and a review.",
  notes: [],
  coordinator: ref,
  steps: [
    { id: "s1", role: "strategist", task: "Plan it", depends_on: [], phase: "agent", ...ref },
    { id: "s2", role: "coder", task: "Code it", depends_on: [], phase: "agent", ...ref },
    { id: "s3", role: "critic", task: "Review", depends_on: ["s1", "s2"], phase: "review", ...ref },
  ],
};

const stream = eventStream();
const { ev, done } = stream;

/** A stored lane as the server returns it: a completed first version, unless `step` says. */
const storedStep = (
  step: Pick<TRunStep, "id" | "step_id" | "role" | "output"> & Partial<TRunStep>,
): TRunStep => ({
  kind: "agent",
  ...ref,
  status: "completed",
  stopped: false,
  input_tokens: 1,
  output_tokens: 2,
  credits: 0.3,
  latency_ms: 10,
  ttft_ms: 5,
  error: null,
  started_at: at(1),
  finished_at: at(2),
  version: 1,
  rerun_of: null,
  temperature: null,
  critic_score: null,
  ...step,
});

const storedRun = (status: TRun["status"]): TRun => ({
  id: R,
  session_id: S,
  message_id: userMessage.id,
  result_message_id: status === "completed" ? answer.id : null,
  status,
  mode: "automatic",
  coordinator_model: "coreason",
  plan,
  critic_score: status === "completed" ? 8 : null,
  total_credits: 1.2,
  input_tokens: 10,
  output_tokens: 20,
  error: null,
  first_seq: 5,
  created_at: at(0),
  finished_at: status === "completed" ? at(30) : null,
  steps: [
    storedStep({ id: "c1", step_id: "s1", role: "strategist", output: "Stored draft" }),
    storedStep({
      id: "c3",
      kind: "critic",
      step_id: "s3",
      role: "critic",
      credits: 0.1,
      output: "Score: 8/10",
      started_at: at(3),
      finished_at: at(4),
    }),
  ],
});

function fullRun(): TRunEvent[] {
  stream.seq = 0;
  return [
    ev("run.started", { message: userMessage, mode: "automatic", coordinator_model: "coreason" }),
    ev("run.plan", { plan, credits: 0.1, repaired: false }),
    ev("agent.started", { ...lane("c1", "s1"), role: "strategist", task: "Plan it", ...ref }),
    ev("agent.started", { ...lane("c2", "s2"), role: "coder", task: "Code it", ...ref }),
    ev("agent.delta", { ...lane("c1", "s1"), text: "Step one" }),
    ev("agent.delta", { ...lane("c2", "s2"), text: "```ts\n" }),
    ev("agent.delta", { ...lane("c1", "s1"), text: ", step two" }),
    done("c1", "s1", "strategist"),
    ev("credits.changed", {
      call_id: "c1",
      credits: 0.25,
      run_credits: 0.35,
      session_spent_credits: 0.35,
      balance: 99,
      available: 98,
    }),
    done("c2", "s2", "coder"),
    ev("agent.started", { ...lane("c3", "s3", "critic"), role: "critic", task: "Review", ...ref }),
    ev("agent.delta", { ...lane("c3", "s3", "critic"), text: "Score: 6/10" }),
    done("c3", "s3", "critic", "completed", "critic"),
    ev("critic.verdict", {
      call_id: "c3",
      score: 6,
      bar: 7,
      verdict: "revise",
      draft_scores: { s2: 5 },
      revise_step_ids: ["s2"],
    }),
    ev("agent.started", {
      ...lane("c4", "s2", "revision"),
      role: "coder",
      task: "Code it",
      ...ref,
    }),
    ev("agent.delta", { ...lane("c4", "s2", "revision"), text: "better code" }),
    done("c4", "s2", "coder", "completed", "revision"),
    ev("final.delta", { call_id: "c5", text: "## Summary" }),
    ev("final.delta", { call_id: "c5", text: "\n\nDone." }),
    ev("run.completed", {
      message: answer,
      critic_score: 6,
      total_credits: 1.5,
      input_tokens: 900,
      output_tokens: 400,
      duration_ms: 30_000,
      synthesis: { call_id: "c5", ...ref, model: "coreason", model_name: "CoReason", credits: 0.4 },
    }),
  ];
}

describe("run events → run view", () => {
  it("follows a run from start to answer", () => {
    const events = fullRun();
    const midway = applyRunEvents(EMPTY_CONVERSATION, events.slice(0, 8));
    const live = midway.runs[R];
    expect(live?.status).toBe("running");
    expect(live?.lanes.map((l) => [l.role, l.text, l.status])).toEqual([
      ["strategist", "Step one, step two", "completed"],
      ["coder", "```ts\n", "running"],
    ]);
    expect(planStepState(live as never, "s1")).toBe("done");
    expect(planStepState(live as never, "s2")).toBe("running");
    expect(planStepState(live as never, "s3")).toBe("pending");
    expect(activeRunOf(midway)?.id).toBe(R);

    const end = applyRunEvents(midway, events.slice(8));
    const run = end.runs[R];
    expect(run?.status).toBe("completed");
    expect(run?.lanes.map((l) => l.kind)).toEqual(["agent", "agent", "critic", "revision"]);
    expect(run?.lanes[0]?.credits).toBe(0.25);
    expect(run?.critic).toMatchObject({ score: 6, verdict: "revise", reviseStepIds: ["s2"] });
    expect(run?.final).toMatchObject({ text: "## Summary\n\nDone.", credits: 0.4 });
    expect(run?.final?.ref?.modelName).toBe("CoReason");
    expect(run?.totalCredits).toBe(1.5);
    expect(planStepState(run as never, "s3")).toBe("done");
    expect(activeRunOf(end)).toBeNull();
    // The answer shows inside its run, not as a message of its own.
    expect(timelineOf(end)).toEqual([{ message: userMessage, run, again: false }]);
  });

  it("keeps partial output when a run is stopped", () => {
    const events = fullRun().slice(0, 7);
    stream.seq = 7;
    const state = applyRunEvents(EMPTY_CONVERSATION, [
      ...events,
      done("c2", "s2", "coder", "stopped"),
      ev("run.cancelled", { reason: "user", total_credits: 0.35 }),
    ]);
    const run = state.runs[R];
    expect(run?.status).toBe("cancelled");
    expect(run?.lanes.map((l) => [l.text, l.status])).toEqual([
      ["Step one, step two", "stopped"],
      ["```ts\n", "stopped"],
    ]);
    expect(planStepState(run as never, "s3")).toBe("stopped");
  });

  it("goes on after a resumption: the cut-off lane ends, the new call streams in its own lane", () => {
    const events = fullRun().slice(0, 8);
    stream.seq = 8;
    const state = applyRunEvents(EMPTY_CONVERSATION, [
      ...events,
      ev("run.resumed", { from_status: "running", reused_steps: 2, attempt: 1 }),
      ev("agent.started", { ...lane("c9", "s2"), role: "coder", task: "Code it", ...ref }),
      ev("agent.delta", { ...lane("c9", "s2"), text: "again" }),
    ]);
    const run = state.runs[R];
    expect(run?.status).toBe("running");
    expect(run?.resumes).toBe(1);
    expect(run?.lanes.map((l) => [l.callId, l.text, l.status])).toEqual([
      ["c1", "Step one, step two", "completed"],
      ["c2", "```ts\n", "stopped"],
      ["c9", "again", "running"],
    ]);
    expect(planStepState(run as never, "s2")).toBe("running");
    // The call made after the resumption is the step's: once it ends, so has the step.
    const ended = applyRunEvents(state, [done("c9", "s2", "coder", "completed")]).runs[R];
    expect(planStepState(ended as never, "s2")).toBe("done");
  });

  it("records a failure with its message", () => {
    stream.seq = 0;
    const state = applyRunEvents(EMPTY_CONVERSATION, [
      ev("run.started", { message: userMessage, mode: "automatic", coordinator_model: "coreason" }),
      ev("run.failed", { code: "insufficient_credits", message: "Add credits.", total_credits: 0 }),
    ]);
    expect(state.runs[R]?.error).toEqual({ code: "insufficient_credits", message: "Add credits." });
    expect(state.messages).toEqual([userMessage]);
  });

  it("shows the sent message at once and merges the server's events into it", () => {
    const sent = addSentMessage(EMPTY_CONVERSATION, {
      runId: R,
      messageId: userMessage.id,
      sessionId: S,
      content: userMessage.content,
      at: at(0),
    });
    expect(timelineOf(sent)).toHaveLength(1);
    expect(timelineOf(sent)[0]?.message?.content).toBe("Build a landing page");
    const after = applyRunEvents(sent, fullRun().slice(0, 2));
    expect(timelineOf(after)).toHaveLength(1);
    expect(after.runs[R]?.plan?.steps).toHaveLength(3);
  });
});

describe("the plan as the coordinator writes it (decision 079)", () => {
  const started = () => {
    stream.seq = 0;
    return ev("run.started", {
      message: userMessage,
      mode: "automatic",
      coordinator_model: "coreason",
    });
  };
  const delta = (
    callId: string,
    rationale: string,
    from: number,
    steps: { role: "strategist" | "coder" | "critic"; task: string }[],
    restart?: true,
  ) =>
    ev("plan.delta", { call_id: callId, rationale, from, steps, ...(restart ? { restart } : {}) });

  it("grows the draft from plan.delta, then shows only the final plan", () => {
    const events = [
      started(),
      delta("p1", "", 0, []),
      delta("p1", "Two drafts", 0, []),
      delta("p1", " and a review.", 0, [{ role: "strategist", task: "Pla" }]),
      delta("p1", "", 0, [
        { role: "strategist", task: "Plan it" },
        { role: "coder", task: "" },
      ]),
      delta("p1", "", 1, [{ role: "coder", task: "Code it" }]),
    ];
    const forming = applyRunEvents(EMPTY_CONVERSATION, events);
    expect(forming.runs[R]?.status).toBe("planning");
    expect(forming.runs[R]?.plan).toBeNull();
    expect(forming.runs[R]?.planDraft).toEqual({
      callId: "p1",
      rationale: "Two drafts and a review.",
      steps: [
        { role: "strategist", task: "Plan it" },
        { role: "coder", task: "Code it" },
      ],
    });

    const planned = applyRunEvents(forming, [
      ev("run.plan", { plan, credits: 0.1, repaired: false }),
    ]);
    expect(planned.runs[R]?.status).toBe("running");
    expect(planned.runs[R]?.plan).toEqual(plan);
    expect(planned.runs[R]?.planDraft).toBeNull();
    // A piece replayed or late after the plan changes nothing.
    const late = delta("p1", " more", 0, []);
    expect(applyRunEvents(planned, [late])).toBe(planned);
  });

  it("starts the draft again for a repair attempt's call and after a restart", () => {
    const events = [
      started(),
      delta("p1", "Only a critic.", 0, [{ role: "critic", task: "Review" }]),
      delta("p2", "Two", 0, []),
      delta("p2", " drafts.", 0, [{ role: "coder", task: "Code" }]),
    ];
    const repaired = applyRunEvents(EMPTY_CONVERSATION, events);
    expect(repaired.runs[R]?.planDraft).toEqual({
      callId: "p2",
      rationale: "Two drafts.",
      steps: [{ role: "coder", task: "Code" }],
    });
    const restarted = applyRunEvents(repaired, [
      delta("p2", "Again", 0, [{ role: "strategist", task: "Plan" }], true),
    ]);
    expect(restarted.runs[R]?.planDraft).toEqual({
      callId: "p2",
      rationale: "Again",
      steps: [{ role: "strategist", task: "Plan" }],
    });
  });
});

describe("session detail → conversation", () => {
  const session = {} as TSession;
  /** A reload's conversation: these stored runs after the user's message (and the answer, unless told). */
  const reload = (runs: TRun[], messages: TChatMessage[] = [userMessage, answer]) =>
    conversationFromDetail({ session, messages, runs, last_seq: 40 });

  it("takes finished runs as stored and ignores their old events", () => {
    const { state, afterSeq } = reload([storedRun("completed")]);
    expect(afterSeq).toBe(40);
    const run = state.runs[R];
    expect(run?.final?.text).toBe(answer.content);
    expect(run?.lanes[0]).toMatchObject({ text: "Stored draft", task: "Plan it" });
    expect(run?.critic).toMatchObject({ score: 8, verdict: "approve" });
    expect(applyRunEvents(state, fullRun().slice(0, 3))).toBe(state);
  });

  it("keeps an outline until its page is read, then the run in full (decision 077)", () => {
    const outline: TRun = { ...storedRun("completed"), plan: null, steps: [], outline: true };
    const { state } = reload([outline]);
    expect(state.runs[R]).toMatchObject({ outline: true, status: "completed", lanes: [] });
    const merged = mergeEarlierRuns(state, [storedRun("completed")]);
    expect(merged.runs[R]?.outline).toBeUndefined();
    expect(merged.runs[R]?.lanes[0]).toMatchObject({ text: "Stored draft", task: "Plan it" });
    expect(merged.messages).toBe(state.messages);
    // A run the page holds in full already (streamed here, or an earlier page) stays as it is.
    expect(mergeEarlierRuns(merged, [storedRun("completed")])).toBe(merged);
  });

  it("shows the turns after the last one with an outline among its answers (decision 077)", () => {
    const full = { outline: undefined } as RunView;
    const outlined = { outline: true } as RunView;
    expect(firstLoadedTurn([])).toBe(0);
    expect(firstLoadedTurn([{ runs: [full] }, { runs: [full] }])).toBe(0);
    expect(
      firstLoadedTurn([
        { runs: [outlined] },
        { runs: [full, outlined] },
        { runs: [full] },
        { runs: [] },
      ]),
    ).toBe(2);
  });

  it("rebuilds a finished run's tool rows from the stored calls (decision 058)", () => {
    const call = {
      call_id: "c1",
      step_id: "s1",
      tool: "mcp__notes__create_note",
      title: "Create note (Notes)",
      risk: "write" as const,
      source: { kind: "mcp" as const, server_id: "srv1", server_name: "Notes" },
      args: { title: "Launch", body: "Plan" },
      truncated: false,
      credits: 0,
      sources: [],
    };
    const { state } = reload([
      {
        ...storedRun("completed"),
        tool_calls: [
          {
            ...call,
            tool_call_id: "t1",
            status: "completed",
            duration_ms: 42,
            output_chars: 20,
            text_preview: "Created note n3: Launch",
            error: null,
            approval: { decision: "approved", by_name: "Ann", at: at(5) },
          },
          {
            ...call,
            tool_call_id: "t2",
            status: "denied",
            duration_ms: null,
            output_chars: null,
            text_preview: "",
            error: { code: "tool_denied", message: "Denied by Ann: the tool was not called." },
            approval: { decision: "denied", by_name: "Ann", at: at(6) },
          },
          {
            ...call,
            tool_call_id: "t3",
            status: "running",
            duration_ms: null,
            output_chars: null,
            text_preview: "",
            error: null,
            approval: null,
          },
        ],
      },
    ]);
    expect(state.runs[R]?.toolCalls).toEqual([
      {
        toolCallId: "t1",
        callId: "c1",
        stepId: "s1",
        kind: "agent",
        tool: "mcp__notes__create_note",
        title: "Create note (Notes)",
        serverName: "Notes",
        risk: "write",
        args: { title: "Launch", body: "Plan" },
        status: "completed",
        durationMs: 42,
        outputChars: 20,
        truncated: false,
        credits: 0,
        preview: "Created note n3: Launch",
        error: null,
        approvalId: null,
        approvedBy: "Ann",
        files: [],
      },
      expect.objectContaining({
        toolCallId: "t2",
        status: "denied",
        error: "Denied by Ann: the tool was not called.",
        approvedBy: null,
      }),
      // Its run ended before it did: it is not running any more.
      expect.objectContaining({
        toolCallId: "t3",
        status: "failed",
        error: TOOL_STOPPED_WITH_RUN,
        credits: null,
      }),
    ]);
  });

  it("shows a finished run's answered approvals as answered cards after a reload (decision 076)", () => {
    const base = {
      call_id: "c1",
      step_id: "s1",
      tool: "search_documents",
      title: "Search documents",
      risk: "read" as const,
      source: { kind: "builtin" as const },
      args: { query: "opening hours" },
      truncated: false,
      credits: 0,
      sources: [],
      duration_ms: 5,
      output_chars: 10,
      text_preview: "",
      error: null,
    };
    const { state } = reload([
      {
        ...storedRun("completed"),
        tool_calls: [
          {
            ...base,
            tool_call_id: "t1",
            status: "completed",
            approval: {
              decision: "approved",
              by_name: "Ann",
              at: at(5),
              id: "ap1",
              reason: "policy",
              note: null,
              always: true,
            },
          },
          {
            ...base,
            tool_call_id: "t2",
            status: "denied",
            approval: {
              decision: "denied",
              by_name: "Bo",
              at: at(6),
              id: "ap2",
              reason: "untrusted",
              note: "Denied by Bo: the tool was not called.",
              always: false,
            },
          },
          // Stored before the request's id was kept: its row says who, no card.
          {
            ...base,
            tool_call_id: "t3",
            status: "completed",
            approval: { decision: "approved", by_name: "Ann", at: at(7) },
          },
        ],
      },
    ]);
    expect(state.runs[R]?.approvals).toEqual([
      {
        id: "ap1",
        toolCallId: "t1",
        callId: "c1",
        stepId: "s1",
        tool: "search_documents",
        title: "Search documents",
        serverName: null,
        risk: "read",
        args: { query: "opening hours" },
        reason: "policy",
        expiresAt: at(5),
        status: "approved",
        byName: "Ann",
        note: null,
        always: true,
        decidedAt: at(5),
      },
      expect.objectContaining({
        id: "ap2",
        status: "denied",
        byName: "Bo",
        note: "Denied by Bo: the tool was not called.",
        decidedAt: at(6),
      }),
    ]);
    expect(state.runs[R]?.toolCalls.map((c) => c.approvalId)).toEqual(["ap1", "ap2", null]);
  });

  it("replays a run in progress from its first event", () => {
    const { state, afterSeq } = reload([storedRun("running")], [userMessage]);
    expect(afterSeq).toBe(4);
    expect(state.runs[R]?.lanes).toEqual([]);
    const replayed = applyRunEvents(state, fullRun().slice(0, 5));
    expect(replayed.runs[R]?.lanes[0]?.text).toBe("Step one");
  });

  it("replays a run in progress with its plan's preview: the final plan once, no draft (decision 079)", () => {
    const { state, afterSeq } = reload([storedRun("running")], [userMessage]);
    expect(afterSeq).toBe(4);
    stream.seq = 0;
    const events = [
      ev("run.started", { message: userMessage, mode: "automatic", coordinator_model: "coreason" }),
      ev("plan.delta", { call_id: "p1", rationale: "Two drafts", from: 0, steps: [] }),
      ev("plan.delta", {
        call_id: "p1",
        rationale: " and a review.",
        from: 0,
        steps: [{ role: "strategist", task: "Plan it" }],
      }),
    ];
    const forming = applyRunEvents(state, events);
    expect(forming.runs[R]?.planDraft?.rationale).toBe("Two drafts and a review.");
    const replayed = applyRunEvents(forming, [
      ev("run.plan", { plan, credits: 0.1, repaired: false }),
    ]);
    expect(replayed.runs[R]?.plan).toEqual(plan);
    expect(replayed.runs[R]?.planDraft).toBeNull();
  });

  it("adds a step's re-run to a stored run as a version beside the first (decision 031)", () => {
    const { state } = reload([storedRun("completed")]);
    const started = ev("agent.started", {
      ...lane("v2", "s1"),
      role: "strategist",
      task: "Plan it",
      ...ref,
      model: "cologic",
      model_name: "CoLogic",
      version: 2,
      rerun_of: "c1",
      temperature: 0.4,
    });
    const review = ev("agent.started", {
      ...lane("v2-review", "s3", "critic"),
      role: "critic",
      task: "Review",
      ...ref,
      version: 2,
      rerun_of: "v2",
      temperature: null,
    });
    const next = applyRunEvents(state, [
      started,
      ev("agent.delta", { ...lane("v2", "s1"), text: "Second take" }),
      done("v2", "s1", "strategist"),
      ev("credits.changed", {
        call_id: "v2",
        credits: 0.5,
        run_credits: 0.5,
        session_spent_credits: 1.7,
        balance: 10,
        available: 10,
      }),
      review,
      ev("critic.verdict", {
        call_id: "v2-review",
        score: 6,
        bar: 7,
        verdict: "revise",
        draft_scores: {},
        revise_step_ids: [],
        rerun_call_id: "v2",
      }),
      done("v2-review", "s3", "critic", "completed", "critic"),
    ]);
    const run = next.runs[R];
    if (!run) throw new Error("no run");
    const first = run.lanes.find((l) => l.callId === "c1");
    if (!first) throw new Error("no first version");
    expect(stepVersions(run, first).map((l) => [l.version, l.modelName, l.text])).toEqual([
      [1, "CoQuick", "Stored draft"],
      [2, "CoLogic", "Second take"],
    ]);
    const v2 = run.lanes.find((l) => l.callId === "v2");
    expect(v2).toMatchObject({
      credits: 0.5,
      criticScore: 6,
      temperature: 0.4,
      status: "completed",
    });
    expect(rerunReviewOf(run, v2 as NonNullable<typeof v2>)?.callId).toBe("v2-review");
    // The run's own figures stay: its total, its Critic, its status, its plan steps' states.
    expect(run.totalCredits).toBe(1.2);
    expect(run.critic).toMatchObject({ score: 8, verdict: "approve" });
    expect(run.status).toBe("completed");
    expect(planStepState(run, "s1")).toBe("done");
    expect(rerunGoing(run)).toBe(false);
  });

  it("shows a regenerated run under the same message, after the first", () => {
    const second: TRun = {
      ...storedRun("completed"),
      id: "run-2",
      result_message_id: null,
      created_at: at(40),
    };
    const { state } = reload([storedRun("completed"), second]);
    expect(timelineOf(state).map((e) => [e.message?.id ?? null, e.run?.id, e.again])).toEqual([
      [userMessage.id, R, false],
      [null, "run-2", true],
    ]);
  });

  it("replays a re-run that was streaming at the reload, without repeating stored versions", () => {
    const base = storedRun("completed");
    const stored = (
      id: string,
      version: number,
      status: "running" | "completed",
      output: string,
    ) => ({
      ...(base.steps[0] as TRun["steps"][number]),
      id,
      version,
      rerun_of: "c1",
      status,
      output,
    });
    const { state, afterSeq } = reload([
      {
        ...base,
        steps: [
          ...base.steps,
          stored("v2", 2, "completed", "Whole v2"),
          stored("v3", 3, "running", ""),
        ],
      },
    ]);
    expect(afterSeq).toBe(4);
    const replayed = applyRunEvents(state, [
      ev("agent.delta", { ...lane("v2", "s1"), text: "Whole v2" }),
      done("v2", "s1", "strategist"),
      ev("agent.delta", { ...lane("v3", "s1"), text: "Third " }),
      ev("agent.delta", { ...lane("v3", "s1"), text: "take" }),
      done("v3", "s1", "strategist"),
    ]);
    const texts = replayed.runs[R]?.lanes.map((l) => [l.callId, l.status, l.text]);
    expect(texts).toContainEqual(["v2", "completed", "Whole v2"]);
    expect(texts).toContainEqual(["v3", "completed", "Third take"]);
  });

  it("adds an answer re-written with a re-run version beside the run's own, and replays one streaming", () => {
    const base = storedRun("completed");
    const v2 = {
      ...(base.steps[0] as TRun["steps"][number]),
      id: "v2",
      version: 2,
      rerun_of: "c1",
    };
    const answerRow = (id: string, status: "running" | "completed", output: string) => ({
      ...(base.steps[0] as TRun["steps"][number]),
      id,
      kind: "synthesis" as const,
      step_id: null,
      role: null,
      version: 2,
      rerun_of: "v2",
      status,
      output,
      credits: status === "completed" ? 0.3 : 0,
    });
    const { state, afterSeq } = reload([
      {
        ...base,
        steps: [
          ...base.steps,
          v2,
          answerRow("a1", "completed", "First re-write"),
          answerRow("a2", "running", ""),
        ],
      },
    ]);
    expect(afterSeq).toBe(4);
    const version = (id: string, status: "running" | "completed", credits: number) =>
      ev("final.version", {
        call_id: id,
        rerun_call_id: "v2",
        rerun_step_id: "s1",
        version: 2,
        status,
        ...ref,
        model: "coreason",
        model_name: "CoReason",
        credits,
        input_tokens: 0,
        output_tokens: 0,
        error: null,
      });
    const replayed = applyRunEvents(state, [
      version("a1", "running", 0),
      ev("final.delta", { call_id: "a1", text: "First re-write", rerun_call_id: "v2" }),
      version("a1", "completed", 0.3),
      version("a2", "running", 0),
      ev("final.delta", { call_id: "a2", text: "Second ", rerun_call_id: "v2" }),
      ev("final.delta", { call_id: "a2", text: "re-write", rerun_call_id: "v2" }),
      version("a2", "completed", 0.35),
      ev("credits.changed", {
        call_id: "a2",
        credits: 0.35,
        run_credits: 0.35,
        session_spent_credits: 2,
        balance: 10,
        available: 10,
      }),
    ]);
    const run = replayed.runs[R];
    if (!run) throw new Error("no run");
    expect(answersWith(run, "v2").map((a) => [a.callId, a.status, a.text, a.credits])).toEqual([
      ["a1", "completed", "First re-write", 0.3],
      ["a2", "completed", "Second re-write", 0.35],
    ]);
    // The run's own answer and total stay.
    expect(run.final?.text).toBe(answer.content);
    expect(run.totalCredits).toBe(base.total_credits);
    expect(rerunGoing(run)).toBe(false);
  });
});

describe("documents and memories in a run (decision 037)", () => {
  const passage = (n: number, chunk: string) => ({
    n,
    chunk_id: chunk,
    document_id: "d1",
    document_name: "Handbook.pdf",
    page: n,
    section: null,
    text: `Passage ${n}`,
  });
  const memory = { id: "mem-1", text: "The user writes in British English." };

  it("gathers the passages each lane was given, what it cited, and the memories the plan used", () => {
    const events = fullRun();
    stream.seq = events.length;
    const [started, planned, strategist, coder, ...rest] = events as [
      TRunEvent,
      TRunEvent,
      TRunEvent,
      TRunEvent,
      ...TRunEvent[],
    ];
    const withMemories = { ...planned, plan: { ...plan, memories: [memory] } } as TRunEvent;
    const givenToStrategist = ev("step.passages", {
      ...lane("c1", "s1"),
      passages: [passage(1, "k1"), passage(2, "k2")],
    });
    const givenToCoder = ev("step.passages", { ...lane("c2", "s2"), passages: [passage(2, "k2")] });
    const state = applyRunEvents(EMPTY_CONVERSATION, [
      started,
      withMemories,
      strategist,
      givenToStrategist,
      coder,
      givenToCoder,
      ...rest.map((e) =>
        e.type === "agent.done" && e.call_id === "c1" ? { ...e, cited: [2] } : e,
      ),
    ]);
    const run = state.runs[R];
    expect(run?.memories).toEqual([memory]);
    expect(Object.keys(run?.passages ?? {})).toEqual(["1", "2"]);
    expect(run?.lanes.map((l) => [l.callId, l.passages, l.cited])).toEqual([
      ["c1", [1, 2], [2]],
      ["c2", [2], []],
      ["c3", [], []],
      ["c4", [], []],
    ]);
  });

  it("keeps the final answer's citations and a stored run's passages on reload", () => {
    const events = fullRun();
    const completed = events.at(-1) as TRunEvent;
    const cited = applyRunEvents(EMPTY_CONVERSATION, [
      ...events.slice(0, -1),
      { ...completed, citations: [passage(3, "k3")] } as TRunEvent,
    ]);
    expect(cited.runs[R]?.passages[3]?.chunk_id).toBe("k3");

    const stored: TRun = {
      ...storedRun("completed"),
      plan: { ...plan, memories: [memory] },
      passages: [passage(1, "k1")],
      cited: [1],
      steps: [
        storedStep({
          id: "c1",
          step_id: "s1",
          role: "strategist",
          output: "As the handbook says [1].",
          passages: [1],
          cited: [1],
        }),
      ],
    };
    const { state } = conversationFromDetail({
      session: {} as TSession,
      messages: [userMessage, answer],
      runs: [stored],
      last_seq: 9,
    });
    const run = state.runs[R];
    expect(run?.passages[1]?.document_name).toBe("Handbook.pdf");
    expect(run?.lanes[0]).toMatchObject({ passages: [1], cited: [1] });
    expect(run?.memories).toEqual([memory]);
  });
});

import { randomUUID } from "node:crypto";
import { hundredths, type TRunStepKind } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineFixture, type EngineFixture } from "../../../test/support/engine";
import { reserveCall, withHold } from "./hold-credits";
import { drain, type RunContext } from "./run-context";
import { getRun } from "./run-store";
import { openStep, refuseStep, type StepTarget } from "./write-step";

let engine: EngineFixture;

// A fresh in-memory database with every migration takes a few seconds on a busy machine.
beforeAll(async () => {
  engine = await createEngineFixture();
}, 60_000);
afterAll(() => engine.close());

function target(kind: TRunStepKind): StepTarget {
  const lane = kind === "agent" || kind === "critic" || kind === "revision";
  return {
    callId: randomUUID(),
    kind,
    stepId: lane ? "s1" : null,
    role: lane ? "coder" : null,
    modelId: "coreason",
    modelName: "CoReason",
    provider: "simulator",
    simulated: true,
    task: "Write it",
  };
}

async function settled(ctx: RunContext) {
  await drain(ctx);
  await ctx.events.flush();
  const run = await getRun(engine.db, ctx.runId);
  return {
    events: engine.sent.filter((e) => e.run_id === ctx.runId),
    steps: run?.steps ?? [],
  };
}

/** A real simulator call through the hold, streaming into the step. */
async function runCall(ctx: RunContext, step: ReturnType<typeof openStep>, callId: string) {
  const reserved = await reserveCall(ctx, callId, hundredths(500));
  step.start(reserved);
  return withHold(ctx, reserved, () =>
    engine.deps.models.streamModel({
      modelId: "coreason",
      messages: [{ role: "user", content: "Say something short" }],
      maxOutputTokens: 60,
      userKeys: ctx.userKeys,
      onDelta: (delta) => step.delta(delta),
    }),
  );
}

describe("the step writer", () => {
  it("opens the row and the lane, streams deltas, then closes both with the charge", async () => {
    const ctx = await engine.newRun({ credits: 20 });
    const lane = target("agent");
    const step = openStep(ctx, lane);
    const held = await runCall(ctx, step, lane.callId);
    step.completed(held, held.result.text);
    const { events, steps } = await settled(ctx);

    expect(events.map((e) => e.type)).toEqual([
      "agent.started",
      ...events.slice(1, -2).map(() => "agent.delta"),
      "agent.done",
      "credits.changed",
    ]);
    expect(events[0]).toMatchObject({ call_id: lane.callId, step_id: "s1", kind: "agent" });
    const text = events.flatMap((e) => (e.type === "agent.delta" ? [e.text] : [])).join("");
    expect(text).toBe(held.result.text);
    const charged = held.charged / 100;
    expect(events.at(-2)).toMatchObject({
      type: "agent.done",
      status: "completed",
      credits: charged,
    });
    expect(events.at(-1)).toMatchObject({
      type: "credits.changed",
      call_id: lane.callId,
      credits: charged,
      run_credits: charged,
      session_spent_credits: charged,
      balance: 20 - charged,
    });
    expect(steps).toEqual([
      expect.objectContaining({
        id: lane.callId,
        status: "completed",
        credits: charged,
        output: held.result.text,
      }),
    ]);
  });

  it("records a stopped call with what had arrived, and no charge", async () => {
    const ctx = await engine.newRun({ credits: 20 });
    const lane = target("revision");
    const step = openStep(ctx, lane);
    const reserved = await reserveCall(ctx, lane.callId, hundredths(500));
    step.start(reserved);
    step.delta("Half a");
    step.failed({ code: "stopped", message: "Stopped before it finished." }, "Half a", true);
    const { events, steps } = await settled(ctx);
    expect(events.map((e) => e.type)).toEqual(["agent.started", "agent.delta", "agent.done"]);
    expect(events.at(-1)).toMatchObject({ status: "stopped", credits: 0, kind: "revision" });
    expect(steps[0]).toMatchObject({
      status: "stopped",
      stopped: true,
      output: "Half a",
      credits: 0,
    });
  });

  it("streams the synthesis as final deltas, and the plan as nothing, each with a row", async () => {
    const ctx = await engine.newRun({ credits: 20 });
    for (const kind of ["plan", "synthesis"] as const) {
      const call = target(kind);
      const step = openStep(ctx, call);
      const held = await runCall(ctx, step, call.callId);
      step.completed(held, held.result.text);
    }
    const { events, steps } = await settled(ctx);
    const kinds = new Set(events.map((e) => e.type));
    expect(kinds).toEqual(new Set(["final.delta", "credits.changed"]));
    expect(steps.map((s) => [s.kind, s.status])).toEqual([
      ["plan", "completed"],
      ["synthesis", "completed"],
    ]);
  });

  it("ends a lane that could not begin at once, without a row", async () => {
    const ctx = await engine.newRun();
    refuseStep(ctx, target("critic"), { code: "unknown_model", message: "Gone." });
    const { events, steps } = await settled(ctx);
    expect(events).toEqual([
      expect.objectContaining({ type: "agent.done", status: "failed", kind: "critic" }),
    ]);
    expect(steps).toEqual([]);
  });
});

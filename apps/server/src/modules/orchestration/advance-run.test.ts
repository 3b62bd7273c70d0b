import { hundredths, type TRunPlanView } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineFixture, type EngineFixture } from "../../../test/support/engine";
import { advance, IllegalRunMove } from "./advance-run";
import { cancelled, drain, failed, haltRun, RunHalted } from "./run-context";
import { finishRun, getRun } from "./run-store";

let engine: EngineFixture;

// A fresh in-memory database with every migration takes a few seconds on a busy machine.
beforeAll(async () => {
  engine = await createEngineFixture();
}, 60_000);
afterAll(() => engine.close());

const modelRef = {
  model: "coreason",
  model_name: "CoReason",
  provider: "simulator",
  simulated: true,
};
const plan: TRunPlanView = {
  mode: "automatic",
  rationale: "One step is enough.",
  steps: [
    { id: "s1", role: "coder", task: "Write it", depends_on: [], phase: "agent", ...modelRef },
  ],
  notes: [],
  coordinator: modelRef,
};

const sentOf = (runId: string) => engine.sent.filter((e) => e.run_id === runId);

describe("advance", () => {
  it("stores each move beside the run, in order, with the run's first event as its cursor", async () => {
    const ctx = await engine.newRun();
    await advance(ctx, { to: "planning" });
    await drain(ctx);
    const planning = await getRun(engine.db, ctx.runId);
    expect(planning).toMatchObject({ status: "planning", first_seq: 1 });
    expect(sentOf(ctx.runId).map((e) => e.type)).toEqual(["run.started"]);

    await advance(ctx, { to: "running", plan, planCredits: hundredths(12), repaired: false });
    await drain(ctx);
    expect(await getRun(engine.db, ctx.runId)).toMatchObject({ status: "running", plan });
    await ctx.events.flush();
    expect(sentOf(ctx.runId).at(-1)).toMatchObject({ type: "run.plan", credits: 0.12 });
    expect(ctx.status).toBe("running");
  });

  it("never lets a later phase's write land before an earlier one's", async () => {
    const ctx = await engine.newRun();
    // Back to back: the planning write waits for run.started to be stored, the next ones
    // are queued behind it.
    await advance(ctx, { to: "planning" });
    await advance(ctx, { to: "running", plan, planCredits: hundredths(12), repaired: false });
    await advance(ctx, { to: "synthesizing" });
    await drain(ctx);
    expect(await getRun(engine.db, ctx.runId)).toMatchObject({
      status: "synthesizing",
      first_seq: expect.any(Number),
      plan,
    });
  });

  it("refuses a move the transition table does not allow, storing nothing", async () => {
    const ctx = await engine.newRun();
    await advance(ctx, { to: "planning" });
    await expect(advance(ctx, { to: "synthesizing" })).rejects.toBeInstanceOf(IllegalRunMove);
    await drain(ctx);
    expect((await getRun(engine.db, ctx.runId))?.status).toBe("planning");
    expect(ctx.status).toBe("planning");
  });

  it("moves a halted run only to its end, stored with its totals and sent last", async () => {
    const ctx = await engine.newRun();
    await advance(ctx, { to: "planning" });
    ctx.totals.credits = hundredths(250);
    const halt = haltRun(ctx, failed("budget_exceeded", "The budget would be passed."));
    expect(halt).toBeInstanceOf(RunHalted);
    expect(ctx.controller.signal.aborted).toBe(true);
    await expect(
      advance(ctx, { to: "running", plan, planCredits: hundredths(0), repaired: false }),
    ).rejects.toBeInstanceOf(RunHalted);

    // A later reason does not replace the first.
    expect(haltRun(ctx, cancelled("user")).end).toEqual(halt.end);
    expect(await advance(ctx, { to: "halted", end: halt.end })).toBe(true);
    expect(await getRun(engine.db, ctx.runId)).toMatchObject({
      status: "failed",
      total_credits: 2.5,
      error: { code: "budget_exceeded", message: "The budget would be passed." },
    });
    await ctx.events.flush();
    expect(sentOf(ctx.runId).at(-1)).toMatchObject({
      type: "run.failed",
      code: "budget_exceeded",
      total_credits: 2.5,
    });
    await expect(advance(ctx, { to: "halted", end: halt.end })).rejects.toBeInstanceOf(
      IllegalRunMove,
    );
  });

  it("sends no end event for a run another instance ended already", async () => {
    const ctx = await engine.newRun();
    await advance(ctx, { to: "planning" });
    await finishRun(engine.db, ctx.runId, {
      outcome: { status: "failed", code: "run_interrupted", message: "Swept." },
      totalCredits: hundredths(0),
      inputTokens: 0,
      outputTokens: 0,
    });
    expect(await advance(ctx, { to: "halted", end: cancelled("user") })).toBe(false);
    await ctx.events.flush();
    expect(sentOf(ctx.runId).map((e) => e.type)).toEqual(["run.started"]);
    expect((await getRun(engine.db, ctx.runId))?.status).toBe("failed");
  });
});

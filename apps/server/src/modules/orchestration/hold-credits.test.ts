import { randomUUID } from "node:crypto";
import { hundredths } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineFixture, type EngineFixture } from "../../../test/support/engine";
import { AppError } from "../../platform/errors";
import type { ModelCallResult } from "../models/gateway";
import { findSessionFor } from "../sessions/find-session";
import { reserveAndOpenStep } from "./call-statements";
import { releaseReserved, reserveCall, withHold } from "./hold-credits";
import { drain, type RunContext } from "./run-context";
import { openStep, type StepTarget, stepRowOf } from "./write-step";

let engine: EngineFixture;

// A fresh in-memory database with every migration takes a few seconds on a busy machine.
beforeAll(async () => {
  engine = await createEngineFixture();
}, 60_000);
afterAll(() => engine.close());

/** A real answer from the simulator, at the price the test needs. */
async function answer(ctx: RunContext, price: number): Promise<ModelCallResult> {
  const result = await engine.deps.models.streamModel({
    modelId: "coreason",
    messages: [{ role: "user", content: "Say something short" }],
    maxOutputTokens: 50,
    userKeys: ctx.userKeys,
  });
  return { ...result, credits: hundredths(price) };
}

const spentOf = async (ctx: RunContext) =>
  (await findSessionFor(engine.db, ctx.userId, ctx.sessionId)).spent_credits;

describe("the hold wrapper", () => {
  it("holds the worst case, then charges the price and gives the rest back", async () => {
    const ctx = await engine.newRun({ credits: 10 });
    const reserved = await reserveCall(ctx, randomUUID(), hundredths(300));
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 10, held: 3, available: 7 });
    expect(ctx.budget.remaining).toBeNull();

    const held = await withHold(ctx, reserved, () => answer(ctx, 120));
    expect(held.charged).toBe(120);
    expect(ctx.totals.credits).toBe(120);
    const booked = await held.booked;
    expect(booked).toMatchObject({ charged: 120, sessionSpent: 120 });
    expect(booked.balance).toEqual({ balance: 880, available: 880 });
    await drain(ctx);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 8.8, held: 0, available: 8.8 });
    expect(await spentOf(ctx)).toBe(1.2);
  });

  it("never charges more than the hold, whatever the price", async () => {
    const ctx = await engine.newRun({ credits: 10 });
    const reserved = await reserveCall(ctx, randomUUID(), hundredths(100));
    const held = await withHold(ctx, reserved, () => answer(ctx, 999));
    expect(held.charged).toBe(100);
    await drain(ctx);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 9, held: 0, available: 9 });
  });

  it("releases the whole hold when the call throws, and rethrows", async () => {
    const ctx = await engine.newRun({ credits: 10, budget: 5 });
    const reserved = await reserveCall(ctx, randomUUID(), hundredths(300));
    expect(ctx.budget.remaining).toBe(200);
    const failure = new Error("provider down");
    await expect(
      withHold(ctx, reserved, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    await drain(ctx);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 10, held: 0, available: 10 });
    expect(ctx.budget.remaining).toBe(500);
    expect(ctx.totals.credits).toBe(0);
  });

  it("refuses a worst case the session's budget cannot cover, holding nothing", async () => {
    const ctx = await engine.newRun({ credits: 10, budget: 2 });
    // Checked at once, before anything is awaited: a call over budget never starts.
    let refused: unknown = null;
    try {
      void reserveCall(ctx, randomUUID(), hundredths(201));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "budget_exceeded", statusCode: 402 });
    expect((refused as AppError).message).toBe(
      "This session's budget leaves 2.00 credits and the smallest step needs 2.01. Raise the session's budget to continue.",
    );
    expect((refused as AppError).details).toEqual({
      budget: 2,
      spent: 0,
      limit: "session_budget",
      available: 2,
      required: 2.01,
    });
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 10, held: 0, available: 10 });
    // The exact remainder still fits: the check compares whole hundredths.
    const reserved = await reserveCall(ctx, randomUUID(), hundredths(200));
    expect(ctx.budget.remaining).toBe(0);
    await releaseReserved(ctx, reserved);
    expect(ctx.budget.remaining).toBe(200);
  });

  it("refuses a worst case the balance cannot cover, and gives the budget back", async () => {
    const ctx = await engine.newRun({ credits: 1, budget: 50 });
    await expect(reserveCall(ctx, randomUUID(), hundredths(101))).rejects.toMatchObject({
      code: "insufficient_credits",
    });
    expect(ctx.budget.remaining).toBe(5000);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 1, held: 0, available: 1 });
  });

  it("runs a call that costs nothing without a hold, charging nothing", async () => {
    const ctx = await engine.newRun();
    const reserved = await reserveCall(ctx, randomUUID(), hundredths(0));
    expect(reserved.hold).toBeNull();
    const held = await withHold(ctx, reserved, () => answer(ctx, 0));
    expect(held.charged).toBe(0);
    expect(await held.booked).toEqual({
      charged: 0,
      sessionSpent: null,
      balance: null,
      stepEnded: false,
    });
  });
});

/** The step row as stored, with the hold it points at. */
async function stepRow(callId: string) {
  const { rows } = await engine.db.query<{
    status: string;
    credits: number;
    hold_id: string | null;
    reserved_credits: number;
    output: string;
  }>("SELECT status, credits, hold_id, reserved_credits, output FROM run_steps WHERE id = $1", [
    callId,
  ]);
  return rows[0] ?? null;
}

function stepOf(): StepTarget {
  return {
    callId: randomUUID(),
    kind: "agent",
    stepId: "s1",
    role: "coder",
    modelId: "coreason",
    modelName: "CoReason",
    provider: "simulator",
    simulated: true,
    task: "Write it",
  };
}

/** A call of 1.20 credits on a hold of 3, its step opened by the hold, ended by the settlement. */
async function settledCall(output: (result: ModelCallResult) => string) {
  const ctx = await engine.newRun({ credits: 10 });
  const target = stepOf();
  const step = openStep(ctx, target);
  const row = reserveAndOpenStep(stepRowOf(ctx, target));
  const reserved = await reserveCall(ctx, target.callId, hundredths(300), row);
  step.start(reserved);
  const held = await withHold(ctx, reserved, () => answer(ctx, 120), step.settling(output));
  return { ctx, target, reserved, held };
}

describe("a call's folded statements", () => {
  it("opens the step row in the hold's statement, pointing at the hold", async () => {
    const ctx = await engine.newRun({ credits: 10 });
    const target = stepOf();
    const reserved = await reserveCall(
      ctx,
      target.callId,
      hundredths(300),
      reserveAndOpenStep(stepRowOf(ctx, target)),
    );
    expect(reserved.written).not.toBeNull();
    expect(await stepRow(target.callId)).toMatchObject({
      status: "running",
      hold_id: reserved.hold?.id,
      reserved_credits: 300,
    });
    await releaseReserved(ctx, reserved);
  });

  it("writes no step row when the hold is refused", async () => {
    const ctx = await engine.newRun({ credits: 1 });
    const target = stepOf();
    await expect(
      reserveCall(ctx, target.callId, hundredths(101), reserveAndOpenStep(stepRowOf(ctx, target))),
    ).rejects.toMatchObject({ code: "insufficient_credits" });
    expect(await stepRow(target.callId)).toBeNull();
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 1, held: 0, available: 1 });
  });

  it("settles the hold, ends the step and adds to the session's spend in one statement", async () => {
    const { ctx, target, held } = await settledCall((r) => r.text);
    const booked = await held.booked;
    expect(booked).toMatchObject({ charged: 120, sessionSpent: 120, stepEnded: true });
    // Nothing else has written yet (the step writer's `completed` was not called): the one
    // statement wrote the charge, the step's end and the session's spend.
    expect(await stepRow(target.callId)).toMatchObject({
      status: "completed",
      credits: 120,
      output: held.result.text,
    });
    expect(await spentOf(ctx)).toBe(1.2);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 8.8, held: 0, available: 8.8 });
  });

  it("writes none of them when one part fails: the hold stays open for the sweeper", async () => {
    // A NUL character is no valid text for PostgreSQL: the step's end fails, and with it
    // the charge and the session's spend.
    const { ctx, target, held, reserved } = await settledCall(() => "\u0000");
    const booked = await held.booked;
    expect(booked).toMatchObject({
      charged: 0,
      sessionSpent: null,
      balance: null,
      stepEnded: false,
    });
    expect(await stepRow(target.callId)).toMatchObject({ status: "running", credits: 0 });
    expect(await spentOf(ctx)).toBe(0);
    expect(await engine.balanceOf(ctx.userId)).toEqual({ balance: 10, held: 3, available: 7 });
    await releaseReserved(ctx, reserved);
  });
});

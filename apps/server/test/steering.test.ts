import {
  STEERING_ERROR_CODES,
  STEERING_MESSAGES,
  type TPlanEditStep,
  type TPlanReview,
  type TRunEvent,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, restartableInstances, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import * as runs from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * Steering a run (decision 069) through the API and real runs of the simulator: a run of a
 * session with "Review the plan first" waits in `planned`; the plan is edited and started
 * (bad plans are 400s that change nothing); an unstarted plan times out; the wait survives a
 * restart; a message sent while the team works reaches the next step; a lane is steered
 * mid-stream and another skipped, and the run completes.
 */
const TASK = "Plan the launch of a small bakery website: the menu page and the order form.";
const ENV = { SIMULATOR_TOKENS_PER_SECOND: "0" };
const RUN_MS = 120_000;

let t: TestApp;
let me: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  t = await createTestApp(ENV);
  me = await signUpWithCredits(t.app, 500);
  other = await signUp(t.app);
}, RUN_MS);
afterAll(() => t?.close());

const planUrl = (sessionId: string, runId: string) =>
  `/api/sessions/${sessionId}/runs/${runId}/plan`;

async function plannedRun(client: TestClient, sessionId: string) {
  const { run_id } = await runs.sendMessage(client, sessionId, TASK);
  const planned = (await runs.waitForEvent(
    client,
    sessionId,
    (e) => e.run_id === run_id && e.type === "run.planned",
    RUN_MS,
  )) as Extract<TRunEvent, { type: "run.planned" }>;
  const review = (await client.get(planUrl(sessionId, run_id))).json() as TPlanReview;
  return { run_id, planned, review };
}

const editOf = (review: TPlanReview): TPlanEditStep[] =>
  review.plan.steps.map((s) => ({
    id: s.id,
    role: s.role,
    task: s.task,
    depends_on: s.depends_on,
    model: s.model,
  }));

describe("plan review", () => {
  it("waits in planned; bad plans are 400s; an edited plan runs as edited: a removed step never runs, a changed model is used", async () => {
    const session = await runs.createSession(me.client, {
      review_plan: true,
      manual_agent_selection: true,
      agent_preferences: {
        strategist: { enabled: true, model: null, instructions: "" },
        coder: { enabled: true, model: null, instructions: "" },
        designer: { enabled: true, model: null, instructions: "" },
      },
    });
    expect(session.review_plan).toBe(true);
    const { run_id, planned, review } = await plannedRun(me.client, session.id);
    expect(review).toMatchObject({
      id: planned.review_id,
      status: "pending",
      run_status: "planned",
    });
    expect(new Date(review.expires_at).getTime()).toBeGreaterThan(Date.now());
    // Nothing runs while it waits.
    const before = (await runs.sessionEvents(me.client, session.id)).filter(
      (e) => e.run_id === run_id,
    );
    expect(runs.eventsOf(before, "agent.started")).toHaveLength(0);
    const detail = await me.client.get(`/api/sessions/${session.id}`);
    expect(JSON.stringify(detail.json())).toContain('"planned"');

    // A stranger cannot see or start it.
    expect((await other.client.get(planUrl(session.id, run_id))).statusCode).toBe(404);
    expect((await other.client.post(`${planUrl(session.id, run_id)}/start`, {})).statusCode).toBe(
      404,
    );
    const runUrl = `/api/sessions/${session.id}/runs/${run_id}`;
    expect(
      (await other.client.post(`${runUrl}/lanes/s1/steer`, { action: "skip" })).statusCode,
    ).toBe(404);
    expect(
      (await other.client.post(`${runUrl}/messages`, { message: "x", mode: "queue" })).statusCode,
    ).toBe(404);

    const steps = editOf(review);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    const [first, second] = steps as [TPlanEditStep, TPlanEditStep];
    const bad: [string, TPlanEditStep[]][] = [
      ["repeats the id", [first, { ...second, id: first.id }]],
      ["is not an earlier step", [{ ...first, depends_on: ["nowhere"] }]],
      ["is not available", [{ ...first, model: "no-such-model" }]],
      ["at least one step for a role other than the Critic", [{ ...first, role: "critic" }]],
    ];
    for (const [problem, plan] of bad) {
      const refused = await me.client.post(`${planUrl(session.id, run_id)}/start`, { steps: plan });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe(STEERING_ERROR_CODES.invalidPlan);
      expect(refused.json().error.message).toContain(problem);
    }
    const empty = await me.client.post(`${planUrl(session.id, run_id)}/start`, { steps: [] });
    expect(empty.statusCode).toBe(400);
    // Still waiting, unchanged.
    expect(((await me.client.get(planUrl(session.id, run_id))).json() as TPlanReview).status).toBe(
      "pending",
    );

    // Remove the last maker step, run the first on another model with instructions.
    const makers = steps.filter((s) => s.role !== "critic");
    const removed = makers.at(-1) as TPlanEditStep;
    const kept: TPlanEditStep[] = steps
      .filter((s) => s.id !== removed.id)
      .map((s) => ({ ...s, depends_on: (s.depends_on ?? []).filter((d) => d !== removed.id) }));
    const changed = kept[0] as TPlanEditStep;
    const newModel = changed.model === "coquick" ? "cologic" : "coquick";
    kept[0] = { ...changed, model: newModel, temperature: 0.2, instructions: "Keep it short." };
    const started = await me.client.post(`${planUrl(session.id, run_id)}/start`, { steps: kept });
    expect(started.statusCode).toBe(200);
    expect(started.json().plan.steps.map((s: { id: string }) => s.id)).not.toContain(removed.id);

    // Once only.
    const again = await me.client.post(`${planUrl(session.id, run_id)}/start`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe(STEERING_ERROR_CODES.notPlanned);

    const events = await runs.waitForRunEnd(me.client, session.id, run_id, RUN_MS);
    expect(runs.eventsOf(events, "run.completed")).toHaveLength(1);
    expect(runs.eventsOf(events, "plan.started")).toMatchObject([
      { edited: true, by_name: me.user.displayName },
    ]);
    const lanes = runs.eventsOf(events, "agent.started").filter((e) => e.kind === "agent");
    expect(lanes.map((e) => e.step_id)).not.toContain(removed.id);
    expect(lanes.find((e) => e.step_id === changed.id)).toMatchObject({ model: newModel });
    const ended = (await me.client.get(planUrl(session.id, run_id))).json() as TPlanReview;
    expect(ended).toMatchObject({ status: "started", run_status: "completed" });
  });

  it("is off by default: a run goes straight on", async () => {
    const session = await runs.createSession(me.client);
    expect(session.review_plan).toBe(false);
    const { events } = await runs.runToEnd(me.client, session.id, TASK, RUN_MS);
    expect(runs.eventsOf(events, "run.planned")).toHaveLength(0);
    expect(runs.eventsOf(events, "run.completed")).toHaveLength(1);
  });

  it("a message sent while the run waits is queued and taken at the first step", async () => {
    const session = await runs.createSession(me.client, { review_plan: true });
    const { run_id, review } = await plannedRun(me.client, session.id);
    const url = `/api/sessions/${session.id}/runs/${run_id}/messages`;
    const queued = await me.client.post(url, { message: "Use a blue colour scheme." });
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toMatchObject({ mode: "queue", message: STEERING_MESSAGES.queued });
    expect((await me.client.post(url, { message: "  " })).statusCode).toBe(400);
    expect((await me.client.post(`${planUrl(session.id, run_id)}/start`, {})).statusCode).toBe(200);
    const events = await runs.waitForRunEnd(me.client, session.id, run_id, RUN_MS);
    expect(runs.eventsOf(events, "message.queued")).toMatchObject([
      { queued_id: queued.json().queued_id, text: "Use a blue colour scheme." },
    ]);
    const firstLane = review.plan.steps.filter((s) => s.phase === "agent").map((s) => s.id);
    expect(runs.eventsOf(events, "message.taken")).toMatchObject([
      { queued_ids: [queued.json().queued_id] },
    ]);
    expect(firstLane).toContain(runs.eventsOf(events, "message.taken")[0]?.before_step);
    // After the run, queuing is refused.
    const late = await me.client.post(url, { message: "too late" });
    expect(late.statusCode).toBe(409);
  });
});

describe("plan review time-out", () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({ ...ENV, PLAN_REVIEW_TIMEOUT_SECONDS: "1" });
  }, RUN_MS);
  afterAll(() => short?.close());

  it("a plan nobody starts ends the run as failed with the expiry message", async () => {
    const user = await signUpWithCredits(short.app, 100);
    const session = await runs.createSession(user.client, { review_plan: true });
    const { run_id, events } = await runs.runToEnd(user.client, session.id, TASK, RUN_MS);
    expect(runs.eventsOf(events, "run.failed")).toMatchObject([
      {
        code: STEERING_ERROR_CODES.planReviewExpired,
        message: STEERING_MESSAGES.expired(1),
      },
    ]);
    expect(runs.eventsOf(events, "agent.started")).toHaveLength(0);
    const review = (await user.client.get(planUrl(session.id, run_id))).json() as TPlanReview;
    expect(review).toMatchObject({ status: "expired", run_status: "failed" });
    const late = await user.client.post(`${planUrl(session.id, run_id)}/start`, {});
    expect(late.statusCode).toBe(409);
  });
});

describe("a restart while the plan waits", () => {
  const instances = restartableInstances(ENV);
  const start = () => instances.start();

  it(
    "the resumed run waits on the same review (replayed after reload) and starts once",
    async () => {
      const first = await start();
      const user = await signUpWithCredits(first, 100);
      const session = await runs.createSession(user.client, { review_plan: true });
      const { run_id, review } = await plannedRun(user.client, session.id);
      await first.close();

      const second = await start();
      try {
        const client = user.client.on(second);
        await runs.waitForResume(client, session.id, run_id, RUN_MS);
        const again = (await client.get(planUrl(session.id, run_id))).json() as TPlanReview;
        expect(again).toMatchObject({ id: review.id, status: "pending", run_status: "planned" });
        expect(again.plan).toEqual(review.plan);
        // A reloaded page replays the plan and the wait.
        const replay = (await runs.sessionEvents(client, session.id)).filter(
          (e) => e.run_id === run_id,
        );
        expect(new Set(runs.eventsOf(replay, "run.planned").map((e) => e.review_id))).toEqual(
          new Set([review.id]),
        );
        expect((await client.post(`${planUrl(session.id, run_id)}/start`, {})).statusCode).toBe(
          200,
        );
        const events = await runs.waitForRunEnd(client, session.id, run_id, RUN_MS);
        expect(runs.eventsOf(events, "run.completed")).toHaveLength(1);
        expect(runs.eventsOf(events, "plan.started")).toHaveLength(1);
      } finally {
        await second.close();
      }
    },
    RUN_MS * 2,
  );
});

describe("steering lanes", () => {
  let slow: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    slow = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "40" });
    user = await signUpWithCredits(slow.app, 100);
  }, RUN_MS);
  afterAll(() => slow?.close());

  it(
    "Steer stops a lane mid-stream, keeps its text and goes on with the note; Skip ends another; the run completes",
    async () => {
      const session = await runs.createSession(user.client, {
        review_plan: true,
        manual_agent_selection: true,
        agent_preferences: {
          strategist: { enabled: true, model: null, instructions: "" },
          coder: { enabled: true, model: null, instructions: "" },
        },
      });
      const { run_id, review } = await plannedRun(user.client, session.id);
      // Two independent lanes, so both stream at once.
      const steps = editOf(review)
        .filter((s) => s.role !== "critic")
        .slice(0, 2)
        .map((s) => ({ ...s, depends_on: [] }));
      expect(steps).toHaveLength(2);
      expect(
        (await user.client.post(`${planUrl(session.id, run_id)}/start`, { steps })).statusCode,
      ).toBe(200);
      const steered = steps[0] as TPlanEditStep;
      const skipped = steps[1] as TPlanEditStep;
      await runs.waitForEvent(
        user.client,
        session.id,
        (e) => e.run_id === run_id && e.type === "agent.delta" && e.step_id === steered.id,
        RUN_MS,
      );
      const lane = (id: string) => `/api/sessions/${session.id}/runs/${run_id}/lanes/${id}/steer`;
      const noNote = await user.client.post(lane(steered.id), { action: "steer", note: " " });
      expect(noNote.statusCode).toBe(400);
      const steer = await user.client.post(lane(steered.id), {
        action: "steer",
        note: "focus on the data model, skip the UI",
      });
      expect(steer.statusCode).toBe(202);
      const skip = await user.client.post(lane(skipped.id), { action: "skip" });
      expect(skip.statusCode).toBe(202);
      const events = await runs.waitForRunEnd(user.client, session.id, run_id, RUN_MS * 2);
      expect(runs.eventsOf(events, "run.completed")).toHaveLength(1);
      expect(runs.eventsOf(events, "lane.steered")).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            lane: steered.id,
            action: "steer",
            note: "focus on the data model, skip the UI",
          }),
          expect.objectContaining({ lane: skipped.id, action: "skip" }),
        ]),
      );
      // The steered lane: its first call stopped with its text kept and counted, then a
      // second call on the same step completed.
      const calls = runs.eventsOf(events, "agent.done").filter((e) => e.step_id === steered.id);
      expect(calls.map((c) => c.status)).toEqual(["stopped", "completed"]);
      expect(calls[0]?.output_tokens).toBeGreaterThan(0);
      const firstText = events
        .filter((e) => e.type === "agent.delta" && e.call_id === calls[0]?.call_id)
        .map((e) => (e as Extract<TRunEvent, { type: "agent.delta" }>).text)
        .join("");
      expect(firstText.length).toBeGreaterThan(0);
      // The skipped lane ended stopped, and never started again.
      const skippedCalls = runs
        .eventsOf(events, "agent.done")
        .filter((e) => e.step_id === skipped.id);
      expect(skippedCalls.length).toBeLessThanOrEqual(1);
      // A lane that ended cannot be steered.
      const late = await user.client.post(lane(steered.id), { action: "skip" });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe(STEERING_ERROR_CODES.laneNotRunning);
      // Send now: a new run with the partial work as context.
      const next = await runs.sendMessage(user.client, session.id, "One more thing.");
      const now = await user.client.post(
        `/api/sessions/${session.id}/runs/${next.run_id}/messages`,
        {
          message: "Actually, only the order form.",
          mode: "now",
        },
      );
      expect(now.statusCode).toBe(202);
      expect(now.json().mode).toBe("now");
      const newRun = now.json().run_id as string;
      expect(newRun).not.toBe(next.run_id);
      const stopped = await runs.waitForRunEnd(user.client, session.id, next.run_id, RUN_MS);
      expect(runs.eventsOf(stopped, "run.cancelled")).toHaveLength(1);
      await runs.waitForEvent(
        user.client,
        session.id,
        (e) => e.run_id === newRun && e.type === "run.planned",
        RUN_MS,
      );
      // One lane shows the new run going through to its end; at this pace a whole team
      // would add about 40 s of waiting.
      const newReview = (await user.client.get(planUrl(session.id, newRun))).json() as TPlanReview;
      const oneLane = editOf(newReview)
        .filter((s) => s.role !== "critic")
        .slice(0, 1)
        .map((s) => ({ ...s, depends_on: [] }));
      expect(
        (await user.client.post(`${planUrl(session.id, newRun)}/start`, { steps: oneLane }))
          .statusCode,
      ).toBe(200);
      const after = await runs.waitForRunEnd(user.client, session.id, newRun, RUN_MS * 2);
      expect(runs.eventsOf(after, "run.completed")).toHaveLength(1);
    },
    RUN_MS * 4,
  );
});

import { type TRun, type TRunEvent, takeNewEvents } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/app";
import {
  createSession,
  eventsOf,
  runToEnd,
  sendMessage,
  sessionEvents,
  waitForRunEnd,
} from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/** Runs on the built-in simulator (no provider keys), unpaced. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
});
afterAll(() => t.close());

async function user(credits = 200) {
  const signed = await signUpWithCredits(t.app, credits);
  return signed;
}

function expectContiguous(events: readonly TRunEvent[], from = 1) {
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => from + i));
}

describe("a run on the simulator", () => {
  it("plans, runs the agents, reviews, streams the answer and stores everything", async () => {
    const { client, user: me } = await user(200);
    const session = await createSession(client);
    const accepted = await client.post("/api/ai/chat", {
      session_id: session.id,
      message: "  Build a small REST API for a task list with tests  ",
    });
    expect(accepted.statusCode).toBe(202);
    const { run_id, message_id } = accepted.json();

    const events = await waitForRunEnd(client, session.id, run_id);
    expectContiguous(events);
    const [first] = events;
    expect(first).toMatchObject({
      type: "run.started",
      run_id,
      session_id: session.id,
      mode: "automatic",
      coordinator_model: "coreason",
      message: {
        id: message_id,
        role: "user",
        content: "Build a small REST API for a task list with tests",
      },
    });
    const [planEvent] = eventsOf(events, "run.plan");
    const plan = planEvent?.plan;
    expect(plan?.rationale.length).toBeGreaterThan(0);
    expect(plan?.steps.length).toBeGreaterThan(0);
    for (const step of plan?.steps ?? []) {
      expect(step).toMatchObject({ provider: "simulator", simulated: true });
    }

    // Every lane that started also finished, in order, and its deltas sit between the two.
    const agentSteps = plan?.steps.filter((s) => s.phase === "agent") ?? [];
    for (const step of agentSteps) {
      const lane = events.filter(
        (e) => "step_id" in e && e.step_id === step.id && e.kind === "agent",
      );
      expect(lane[0]?.type).toBe("agent.started");
      expect(lane.at(-1)).toMatchObject({
        type: "agent.done",
        status: "completed",
        simulated: true,
      });
      expect(lane.slice(1, -1).every((e) => e.type === "agent.delta")).toBe(true);
    }
    const reviewed = plan?.steps.some((s) => s.phase === "review");
    expect(eventsOf(events, "critic.verdict")).toHaveLength(reviewed ? 1 : 0);

    const completed = eventsOf(events, "run.completed")[0];
    expect(events.at(-1)).toBe(completed);
    const finalText = eventsOf(events, "final.delta")
      .map((e) => e.text)
      .join("");
    expect(completed?.message).toMatchObject({ role: "assistant", run_id, content: finalText });
    expect(finalText).toContain("## Summary");

    // The stored picture matches the events.
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages.map((m: { id: string; role: string }) => [m.role, m.id])).toEqual([
      ["user", message_id],
      ["assistant", completed?.message.id],
    ]);
    const run = detail.runs[0] as TRun;
    expect(run).toMatchObject({
      id: run_id,
      status: "completed",
      message_id,
      result_message_id: completed?.message.id,
      plan,
      first_seq: 1,
      error: null,
      total_credits: completed?.total_credits,
    });
    expect(detail.last_seq).toBe(events.length);
    const kinds = run.steps.map((s) => s.kind);
    expect(kinds[0]).toBe("plan");
    expect(kinds.at(-1)).toBe("synthesis");
    for (const step of run.steps) {
      expect(step).toMatchObject({ status: "completed", stopped: false, provider: "simulator" });
      expect(step.output_tokens).toBeGreaterThan(0);
      expect(step.credits).toBeGreaterThan(0);
      expect(step.latency_ms).not.toBeNull();
    }
    const total = run.steps.reduce((sum, s) => sum + s.credits, 0);
    expect(run.total_credits).toBeCloseTo(total, 2);

    // Money: every call charged, nothing left on hold, the session's spend kept.
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeCloseTo(200 - run.total_credits, 2);
    expect(detail.session.spent_credits).toBeCloseTo(run.total_credits, 2);
    const charges = eventsOf(events, "credits.changed");
    expect(charges).toHaveLength(run.steps.length);
    expect(charges.at(-1)).toMatchObject({
      run_credits: run.total_credits,
      session_spent_credits: run.total_credits,
      balance: balance.balance,
      available: balance.available,
    });
    expect(charges.reduce((sum, c) => sum + c.credits, 0)).toBeCloseTo(run.total_credits, 2);
    const usage = (await client.get("/api/users/usage")).json();
    expect(usage.totals.total_requests).toBe(run.steps.length);
  });

  it("with manual selection, uses only the user's roles and models", async () => {
    const { client } = await user(200);
    const session = await createSession(client, {
      manual_agent_selection: true,
      agent_preferences: {
        coder: { enabled: true, model: "gpt-4.1" },
        designer: { enabled: true, model: "cochat" },
        strategist: { enabled: false, model: "codepth" },
      },
    });
    const { events } = await runToEnd(
      client,
      session.id,
      "Write a Python function that parses CSV",
    );
    expect(events.at(-1)?.type).toBe("run.completed");
    const plan = eventsOf(events, "run.plan")[0]?.plan;
    expect(plan?.mode).toBe("manual");
    expect(new Set(plan?.steps.map((s) => s.role))).toEqual(new Set(["coder", "designer"]));
    for (const step of plan?.steps ?? []) {
      expect(step.model).toBe(step.role === "coder" ? "gpt-4.1" : "cochat");
    }
    // The request is about code; the coordinator left the Designer out, so the engine added it.
    expect(plan?.notes).toEqual([
      "Added a Designer step: you chose this role and the plan left it out.",
    ]);
    const started = eventsOf(events, "agent.started");
    expect(started.map((e) => [e.role, e.model])).toEqual(
      expect.arrayContaining([
        ["coder", "gpt-4.1"],
        ["designer", "cochat"],
      ]),
    );
    expect(eventsOf(events, "critic.verdict")).toHaveLength(0);
  });

  it("keeps the session's events numbered across runs, and replays from any point", async () => {
    const { client } = await user(200);
    const session = await createSession(client);
    const { events: firstEvents } = await runToEnd(client, session.id, "Outline a blog launch");
    const { events: secondEvents } = await runToEnd(client, session.id, "Now make it shorter");
    expectContiguous([...firstEvents, ...secondEvents]);
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.runs[1].first_seq).toBe(firstEvents.length + 1);
    expect(detail.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    const tail = await sessionEvents(client, session.id, firstEvents.length);
    expect(tail).toEqual(secondEvents);
    const merged = takeNewEvents(firstEvents.length - 3, [
      ...tail,
      ...firstEvents.slice(-3),
      ...tail,
    ]);
    expect(merged.events).toEqual([...firstEvents.slice(-3), ...secondEvents]);
  });
});

describe("credits and budgets", () => {
  it("answers 402 insufficient_credits when the first step cannot be paid, storing nothing", async () => {
    const { client, user: me } = await user(0.2);
    const session = await createSession(client);
    const response = await client.post("/api/ai/chat", { session_id: session.id, message: "Hi" });
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toMatchObject({
      code: "insufficient_credits",
      details: { limit: "balance", available: 0.2 },
    });
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages).toEqual([]);
    expect(detail.runs).toEqual([]);
    expect(await balanceOf(t.app, me.id)).toEqual({ balance: 0.2, held: 0, available: 0.2 });
  });

  it("spends a small balance to its end without overdrawing, charging only what ran", async () => {
    const { client, user: me } = await user(3);
    const session = await createSession(client);
    const { events } = await runToEnd(client, session.id, "Plan a product launch");
    const end = events.at(-1);
    const total =
      end?.type === "run.failed" || end?.type === "run.completed" ? end.total_credits : -1;
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeGreaterThanOrEqual(0);
    expect(balance.balance).toBeCloseTo(3 - total, 2);
    // Every call stopped by the balance says so, and its text is kept.
    const stopped = events.filter((e) => e.type === "agent.done" && e.status === "stopped");
    for (const done of stopped) {
      expect(done).toMatchObject({
        limit: "balance",
        error: {
          code: "stopped_at_limit",
          message: "Stopped at your credit limit: your balance has no credits left for more.",
        },
      });
    }
    // The message is kept whatever the run's end.
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages[0].role).toBe("user");
  });

  it("refuses to start (402 budget_exceeded) when the budget cannot cover planning", async () => {
    const { client } = await user(200);
    const session = await createSession(client, { budget_credits: 0.2 });
    const response = await client.post("/api/ai/chat", { session_id: session.id, message: "Hi" });
    expect(response.statusCode).toBe(402);
    expect(response.json().error.code).toBe("budget_exceeded");
    // Nothing was spent: the message says so and names the cap, not a budget "used up".
    expect(response.json().error.message).toMatch(
      /^This session's budget leaves 0\.20 credits and the smallest step needs [\d.]+\. Raise the session's budget to continue\.$/,
    );
    expect(response.json().error.details).toMatchObject({
      budget: 0.2,
      spent: 0,
      limit: "session_budget",
      available: 0.2,
    });
  });

  it("never lets a run pass the session's budget", async () => {
    const { client, user: me } = await user(200);
    const session = await createSession(client, { budget_credits: 3 });
    const { events } = await runToEnd(client, session.id, "Plan a product launch");
    for (const done of events.filter((e) => e.type === "agent.done" && e.status === "stopped")) {
      expect(done).toMatchObject({ limit: "session_budget", error: { code: "stopped_at_limit" } });
    }
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.session.spent_credits).toBeLessThanOrEqual(3);
    expect(detail.session.spent_credits).toBeCloseTo(detail.runs[0].total_credits, 2);
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
    // Raising the budget lets the next message run.
    await client.request("PATCH", `/api/sessions/${session.id}`, { budget_credits: 500 });
    const again = await runToEnd(client, session.id, "Try again");
    expect(again.events.at(-1)?.type).toBe("run.completed");
  });
});

describe("validation and ownership of runs", () => {
  it("refuses an empty message with 400", async () => {
    const { client } = await user();
    const session = await createSession(client);
    const response = await client.post("/api/ai/chat", { session_id: session.id, message: "   " });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("validation_failed");
  });

  it("lets only the starter cancel a run or read its session's events", async () => {
    const { client } = await user();
    const { client: stranger } = await user();
    const session = await createSession(client);
    const { run_id } = await sendMessage(client, session.id, "Hello team");
    const cancel = await stranger.post(`/api/ai/chat/${run_id}/cancel`);
    expect(cancel.statusCode).toBe(404);
    expect((await stranger.get(`/api/sessions/${session.id}/events`)).statusCode).toBe(404);
    expect((await stranger.post("/api/ai/chat/not-a-uuid/cancel")).statusCode).toBe(404);
    await waitForRunEnd(client, session.id, run_id);
    // Cancelling a run that ended changes nothing and says how it ended.
    const late = await client.post(`/api/ai/chat/${run_id}/cancel`);
    expect(late.json()).toEqual({ run_id, status: "completed" });
  });
});

import { setTimeout as sleep } from "node:timers/promises";
import {
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TRun,
  type TRunEvent,
  takeNewEvents,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import * as runs from "./support/runs";
import { balanceOf, setCredits, signUpWithCredits } from "./support/runs-credits";
import { connected, joinSession, socketOpener } from "./support/sockets";

/** Re-running one step of an ended run on another model (decision 031), on the simulator. */
let t: TestApp;

let url = "";
const sockets = socketOpener(() => url);

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  url = await listenLocally(t.app);
});
afterAll(async () => {
  sockets.closeAll();
  await t.close();
});

function user(credits = 200) {
  return signUpWithCredits(t.app, credits);
}

/** A session with one completed run of the Coder and the Critic. */
async function completedRun(client: TestClient) {
  const session = await runs.createSession(client, runs.CODER_AND_CRITIC);
  const { run_id, events } = await runs.runToEnd(
    client,
    session.id,
    "Write a Python function that parses CSV",
  );
  expect(events.at(-1)?.type).toBe("run.completed");
  const run = await runOf(client, session.id, run_id);
  const coder = run.plan?.steps.find((s) => s.role === "coder");
  if (!coder) throw new Error("the plan has no Coder step");
  return { session, run, coderStep: coder.id };
}

/** What a re-run or a re-written answer leaves as it was: the run's end, score, cost and answer. */
function endOf(run: TRun) {
  return {
    status: "completed",
    critic_score: run.critic_score,
    total_credits: run.total_credits,
    result_message_id: run.result_message_id,
  };
}

async function runOf(client: TestClient, sessionId: string, runId: string): Promise<TRun> {
  const detail = (await client.get(`/api/sessions/${sessionId}`)).json();
  return detail.runs.find((r: TRun) => r.id === runId);
}

const rerunUrl = (sessionId: string, runId: string, stepId: string) =>
  `/api/sessions/${sessionId}/runs/${runId}/steps/${stepId}/rerun`;

/** Waits until the process has no work left on the run (the re-run's calls and bookkeeping). */
async function rerunFinished(runId: string) {
  const deadline = Date.now() + 20_000;
  while (t.app.orchestration.control.busy(runId)) {
    if (Date.now() > deadline) throw new Error("the re-run did not finish");
    await sleep(20);
  }
}

describe("re-running a step with another model", () => {
  it("runs the step again as version 2 beside version 1, scored by the Critic, with its own hold", async () => {
    const { client, user: me } = await user(200);
    const { session, run, coderStep } = await completedRun(client);
    const before = await balanceOf(t.app, me.id);
    const seqBefore = (await runs.sessionEvents(client, session.id)).at(-1)?.seq ?? 0;

    const response = await client.post(rerunUrl(session.id, run.id, coderStep), {
      model: "coquick",
      temperature: 0.3,
    });
    expect(response.statusCode).toBe(202);
    const accepted = response.json();
    expect(accepted).toMatchObject({ run_id: run.id, step_id: coderStep, version: 2 });
    await rerunFinished(run.id);

    // The events: the usual lane events of the run, marked as version 2, then the review.
    const events = (await runs.sessionEvents(client, session.id, seqBefore)) as TRunEvent[];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => seqBefore + 1 + i));
    expect(events.every((e) => e.run_id === run.id)).toBe(true);
    const v1 = run.steps.find((s) => s.kind === "agent" && s.step_id === coderStep);
    const started = runs.eventsOf(events, "agent.started");
    expect(started[0]).toMatchObject({
      call_id: accepted.call_id,
      step_id: coderStep,
      kind: "agent",
      role: "coder",
      model: "coquick",
      version: 2,
      rerun_of: v1?.id,
      temperature: 0.3,
    });
    const done = runs.eventsOf(events, "agent.done").find((e) => e.call_id === accepted.call_id);
    expect(done).toMatchObject({ status: "completed", error: null });
    const verdict = runs.eventsOf(events, "critic.verdict")[0];
    expect(verdict?.rerun_call_id).toBe(accepted.call_id);
    expect(verdict?.revise_step_ids).toEqual([]);
    expect(started[1]).toMatchObject({ kind: "critic", version: 2, rerun_of: accepted.call_id });
    // No run event: the run stays as it ended.
    expect(events.some((e) => e.type.startsWith("run."))).toBe(false);

    // Stored: both versions, the new one linked to the first, with its cost and score.
    const after = await runOf(client, session.id, run.id);
    expect(after).toMatchObject(endOf(run));
    const versions = after.steps.filter((s) => s.kind === "agent" && s.step_id === coderStep);
    expect(versions.map((s) => [s.version, s.model, s.rerun_of])).toEqual([
      [1, "cologic", null],
      [2, "coquick", v1?.id],
    ]);
    const v2 = versions[1];
    expect(v2).toMatchObject({ status: "completed", temperature: 0.3, credits: done?.credits });
    expect(v2?.output.length).toBeGreaterThan(0);
    expect(v2?.critic_score).toBe(verdict?.score);
    const review = after.steps.find((s) => s.kind === "critic" && s.rerun_of === accepted.call_id);
    expect(review).toMatchObject({ status: "completed", version: 2 });

    // Money: both calls charged once, nothing held, the session's spend follows.
    const spent = (v2?.credits ?? 0) + (review?.credits ?? 0);
    expect(spent).toBeGreaterThan(0);
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeCloseTo(before.balance - spent, 2);
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.session.spent_credits).toBeCloseTo(run.total_credits + spent, 2);
    const charges = runs.eventsOf(events, "credits.changed").map((c) => c.call_id);
    expect(charges).toEqual([accepted.call_id, review?.id]);

    // A third version without review: no Critic call.
    const third = await client.post(rerunUrl(session.id, run.id, coderStep), {
      model: "cologic",
      review: false,
    });
    expect(third.statusCode).toBe(202);
    expect(third.json().version).toBe(3);
    await rerunFinished(run.id);
    const last = await runOf(client, session.id, run.id);
    expect(last.steps.filter((s) => s.kind === "critic")).toHaveLength(2);
    expect(last.steps.find((s) => s.id === third.json().call_id)).toMatchObject({
      version: 3,
      status: "completed",
      critic_score: null,
      temperature: null,
    });
  });

  it("answers 404 for another user's run, an unknown run or step, and 400 for a bad model", async () => {
    const { client } = await user(200);
    const { client: stranger } = await user(200);
    const { session, run, coderStep } = await completedRun(client);
    const other = await runs.createSession(client, runs.CODER_AND_CRITIC);
    const cases: [TestClient, string, unknown, number, string][] = [
      [stranger, rerunUrl(session.id, run.id, coderStep), { model: "coquick" }, 404, "not_found"],
      [client, rerunUrl(other.id, run.id, coderStep), { model: "coquick" }, 404, "not_found"],
      [client, rerunUrl(session.id, "nope", coderStep), { model: "coquick" }, 404, "not_found"],
      [client, rerunUrl(session.id, run.id, "s99"), { model: "coquick" }, 404, "not_found"],
      [client, rerunUrl(session.id, run.id, coderStep), { model: "ghost" }, 400, "unknown_model"],
      [
        client,
        rerunUrl(session.id, run.id, coderStep),
        { model: "covision" },
        400,
        "model_not_suitable",
      ],
      [
        client,
        rerunUrl(session.id, run.id, coderStep),
        { model: "coquick", temperature: 3 },
        400,
        "validation_failed",
      ],
      [client, rerunUrl(session.id, run.id, coderStep), {}, 400, "validation_failed"],
    ];
    for (const [who, url, body, status, code] of cases) {
      const response = await who.post(url, body);
      expect([url, response.statusCode, response.json().error?.code]).toEqual([url, status, code]);
    }
    expect((await stranger.post(rerunUrl(session.id, run.id, coderStep), {})).statusCode).toBe(400);
    // Nothing was stored or held.
    const after = await runOf(client, session.id, run.id);
    expect(after.steps).toHaveLength(run.steps.length);
  });

  it("never overdraws the balance when re-runs race for the last credits", async () => {
    const { client, user: me } = await user(200);
    const first = await completedRun(client);
    const second = await completedRun(client);

    // What one re-run's worst case needs, from the 402 of an empty balance.
    await setCredits(t.app, me.id, 0);
    const refused = await client.post(rerunUrl(first.session.id, first.run.id, first.coderStep), {
      model: "coquick",
      review: false,
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe("insufficient_credits");
    const required = refused.json().error.details.required as number;
    expect(required).toBeGreaterThan(0);

    // Enough for one: two re-runs of different runs at once, one is refused with 402.
    await setCredits(t.app, me.id, Math.round(required * 150) / 100);
    const race = await Promise.all(
      [first, second].map((c) =>
        client.post(rerunUrl(c.session.id, c.run.id, c.coderStep), {
          model: "coquick",
          review: false,
        }),
      ),
    );
    // Both holds cannot stand at once, so one is refused — unless the first re-run (instant on
    // the simulator) settled before the second asked, which a loaded machine allows (seen on
    // PostgreSQL). Either way nothing is overdrawn (below); that reserves racing for the last
    // credits never both win is credits.test.ts's "200 parallel reserves".
    expect([
      [202, 402],
      [202, 202],
    ]).toContainEqual(race.map((r) => r.statusCode).sort());
    await rerunFinished(first.run.id);
    await rerunFinished(second.run.id);
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeGreaterThanOrEqual(0);
  });

  it("keeps the session budget: a re-run that could pass it is refused with what was spent and the cap", async () => {
    const { client } = await user(200);
    const { session, run, coderStep } = await completedRun(client);
    await client.request("PATCH", `/api/sessions/${session.id}`, {
      budget_credits: run.total_credits + 0.01,
    });
    const response = await client.post(rerunUrl(session.id, run.id, coderStep), {
      model: "coquick",
    });
    expect(response.statusCode).toBe(402);
    const error = response.json().error;
    expect(error.code).toBe("budget_exceeded");
    expect(error.message).toBe(
      `This session's budget leaves 0.01 credits and the smallest step needs ${error.details.required.toFixed(2)}. Raise the session's budget to continue.`,
    );
    expect(error.details).toMatchObject({
      budget: run.total_credits + 0.01,
      spent: run.total_credits,
      limit: "session_budget",
      available: 0.01,
    });
    const after = await runOf(client, session.id, run.id);
    expect(after.steps).toHaveLength(run.steps.length);
  });
});

describe("two re-runs of one run at once", () => {
  // A paced simulator: the first re-run is still streaming when the second asks. On the
  // instant one, a loaded machine could finish the first before the second arrived, and then
  // both are rightly accepted (seen on PostgreSQL in CI).
  let paced: TestApp;
  beforeAll(async () => {
    paced = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "400", SIGNUP_CREDITS: "0" });
  });
  afterAll(async () => {
    await paced?.close();
  });

  it("starts one and refuses the other with 409 rerun_in_progress", async () => {
    const signed = await signUpWithCredits(paced.app, 200);
    const { session, run, coderStep } = await completedRun(signed.client);
    const both = await Promise.all([
      signed.client.post(rerunUrl(session.id, run.id, coderStep), { model: "coquick" }),
      signed.client.post(rerunUrl(session.id, run.id, coderStep), { model: "coquick" }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(both.find((r) => r.statusCode === 409)?.json().error.code).toBe("rerun_in_progress");
    const deadline = Date.now() + 30_000;
    while (paced.app.orchestration.control.busy(run.id)) {
      if (Date.now() > deadline) throw new Error("the re-run did not finish");
      await sleep(20);
    }
    const after = await runOf(signed.client, session.id, run.id);
    expect(after.steps.filter((s) => s.kind === "agent" && s.step_id === coderStep)).toHaveLength(
      2,
    );
  });
});

const synthesizeUrl = (
  sessionId: string,
  runId: string,
  stepId: string,
  version: number | string,
) => `/api/sessions/${sessionId}/runs/${runId}/steps/${stepId}/versions/${version}/synthesize`;

/** A completed run whose Coder step was re-run (version 2, scored by the Critic). */
async function rerunVersion(client: TestClient, review = true) {
  const done = await completedRun(client);
  const response = await client.post(rerunUrl(done.session.id, done.run.id, done.coderStep), {
    model: "coquick",
    review,
  });
  expect(response.statusCode).toBe(202);
  await rerunFinished(done.run.id);
  return { ...done, rerunCallId: response.json().call_id as string };
}

describe("re-writing the answer with a re-run version", () => {
  it("writes a second answer from the new draft, with its own hold and events; the run's answer stays", async () => {
    const { client, user: me } = await user(200);
    const { session, run, coderStep, rerunCallId } = await rerunVersion(client);
    const before = await balanceOf(t.app, me.id);
    const detailBefore = (await client.get(`/api/sessions/${session.id}`)).json();
    const seqBefore = (await runs.sessionEvents(client, session.id)).at(-1)?.seq ?? 0;

    const response = await client.post(synthesizeUrl(session.id, run.id, coderStep, 2));
    expect(response.statusCode).toBe(202);
    const accepted = response.json();
    expect(accepted).toMatchObject({
      run_id: run.id,
      step_id: coderStep,
      version: 2,
      rerun_call_id: rerunCallId,
    });
    await rerunFinished(run.id);

    // Events: the answer's start, its text as final.delta marked with the re-run, its end and
    // its charge; no run event.
    const events = (await runs.sessionEvents(client, session.id, seqBefore)) as TRunEvent[];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => seqBefore + 1 + i));
    expect(events.map((e) => e.type).filter((type, i, all) => all.indexOf(type) === i)).toEqual([
      "final.version",
      "final.delta",
      "credits.changed",
    ]);
    const versions = runs.eventsOf(events, "final.version");
    expect(versions.map((e) => e.status)).toEqual(["running", "completed"]);
    expect(versions[0]).toMatchObject({
      call_id: accepted.call_id,
      rerun_call_id: rerunCallId,
      rerun_step_id: coderStep,
      version: 2,
      model: run.coordinator_model,
    });
    const deltas = runs.eventsOf(events, "final.delta");
    expect(deltas.every((d) => d.call_id === accepted.call_id)).toBe(true);
    expect(deltas.every((d) => d.rerun_call_id === rerunCallId)).toBe(true);
    const text = deltas.map((d) => d.text).join("");
    expect(text.length).toBeGreaterThan(0);

    // Stored: a synthesis row linked to the re-run, beside the run's own; the run unchanged.
    const after = await runOf(client, session.id, run.id);
    expect(after).toMatchObject(endOf(run));
    const answers = after.steps.filter((s) => s.kind === "synthesis");
    expect(answers.map((s) => [s.version, s.rerun_of])).toEqual([
      [1, null],
      [2, rerunCallId],
    ]);
    const answer = answers[1];
    expect(answer).toMatchObject({
      id: accepted.call_id,
      status: "completed",
      output: text,
      credits: versions[1]?.credits,
    });
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages).toEqual(detailBefore.messages);

    // Money: charged once, nothing held, the session's spend follows; the run's total stays.
    expect(answer?.credits).toBeGreaterThan(0);
    expect(runs.eventsOf(events, "credits.changed").map((c) => [c.call_id, c.credits])).toEqual([
      [accepted.call_id, answer?.credits],
    ]);
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeCloseTo(before.balance - (answer?.credits ?? 0), 2);
    expect(detail.session.spent_credits).toBeCloseTo(
      detailBefore.session.spent_credits + (answer?.credits ?? 0),
      2,
    );

    // Again: a third answer version beside the other two.
    const again = await client.post(synthesizeUrl(session.id, run.id, coderStep, 2));
    expect(again.statusCode).toBe(202);
    await rerunFinished(run.id);
    const last = await runOf(client, session.id, run.id);
    expect(last.steps.filter((s) => s.kind === "synthesis")).toHaveLength(3);
  });

  it("answers 404 for another user's ids or a version that is not a re-run", async () => {
    const { client } = await user(200);
    const { client: stranger } = await user(200);
    const { session, run, coderStep } = await rerunVersion(client, false);
    const other = await runs.createSession(client, runs.CODER_AND_CRITIC);
    const cases: [TestClient, string, number, string][] = [
      [stranger, synthesizeUrl(session.id, run.id, coderStep, 2), 404, "not_found"],
      [client, synthesizeUrl(other.id, run.id, coderStep, 2), 404, "not_found"],
      [client, synthesizeUrl(session.id, "nope", coderStep, 2), 404, "not_found"],
      [client, synthesizeUrl(session.id, run.id, "s99", 2), 404, "not_found"],
      [client, synthesizeUrl(session.id, run.id, coderStep, 1), 404, "not_found"],
      [client, synthesizeUrl(session.id, run.id, coderStep, 3), 404, "not_found"],
      [client, synthesizeUrl(session.id, run.id, coderStep, "two"), 404, "not_found"],
    ];
    for (const [who, url, status, code] of cases) {
      const response = await who.post(url);
      expect([url, response.statusCode, response.json().error?.code]).toEqual([url, status, code]);
    }
    const after = await runOf(client, session.id, run.id);
    expect(after.steps).toHaveLength(run.steps.length + 1);
    expect(after.steps.filter((s) => s.kind === "synthesis")).toHaveLength(1);
  });

  it("refuses while a re-run of the run is going (409) and when the budget or balance cannot cover it (402)", async () => {
    const { client, user: me } = await user(200);
    const { session, run, coderStep } = await rerunVersion(client, false);

    // Two at once: one starts, the other is told one is going. The first one's work waits
    // for the second answer, so a loaded machine cannot finish it before the second arrives.
    const control = t.app.orchestration.control;
    const launch = control.launchRerun.bind(control);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    control.launchRerun = (ctx, work) => launch(ctx, () => gate.then(work));
    let both: Awaited<ReturnType<TestClient["post"]>>[];
    try {
      both = await Promise.all([
        client.post(synthesizeUrl(session.id, run.id, coderStep, 2)),
        client.post(synthesizeUrl(session.id, run.id, coderStep, 2)),
      ]);
    } finally {
      control.launchRerun = launch;
      release();
    }
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(both.find((r) => r.statusCode === 409)?.json().error.code).toBe("rerun_in_progress");
    await rerunFinished(run.id);
    const stored = (await runOf(client, session.id, run.id)).steps.length;

    await setCredits(t.app, me.id, 0);
    const broke = await client.post(synthesizeUrl(session.id, run.id, coderStep, 2));
    expect(broke.statusCode).toBe(402);
    expect(broke.json().error.code).toBe("insufficient_credits");

    await setCredits(t.app, me.id, 200);
    const spent = (await client.get(`/api/sessions/${session.id}`)).json().session.spent_credits;
    await client.request("PATCH", `/api/sessions/${session.id}`, { budget_credits: spent + 0.01 });
    const capped = await client.post(synthesizeUrl(session.id, run.id, coderStep, 2));
    expect(capped.statusCode).toBe(402);
    expect(capped.json().error.code).toBe("budget_exceeded");

    expect((await runOf(client, session.id, run.id)).steps).toHaveLength(stored);
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });
});

describe("a re-run over the session's socket", () => {
  it("streams live to a joined client, numbered after the run's events, the same as stored", async () => {
    const { client, token } = await user(200);
    const { session, run, coderStep } = await completedRun(client);
    const stored = await runs.sessionEvents(client, session.id);
    const lastSeq = stored.at(-1)?.seq ?? 0;
    const socket = sockets.open({ token });
    const live: TRunEvent[] = [];
    socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => live.push(event));
    await connected(socket);
    const ack: TJoinSessionAck = await joinSession(socket, session.id, lastSeq);
    expect(ack).toMatchObject({ ok: true, backlog: [], lastSeq });

    const { call_id } = (
      await client.post(rerunUrl(session.id, run.id, coderStep), { model: "coquick" })
    ).json();
    await rerunFinished(run.id);
    const after = await runs.sessionEvents(client, session.id, lastSeq);
    const deadline = Date.now() + 5_000;
    while (live.length < after.length && Date.now() < deadline) await sleep(10);
    expect(takeNewEvents(lastSeq, live).events).toEqual(after);
    expect(after[0]).toMatchObject({
      type: "agent.started",
      seq: lastSeq + 1,
      call_id,
      version: 2,
    });
  });
});

describe("regenerating an answer", () => {
  it("starts a new run of the same message; the old run and its answer stay", async () => {
    const { client } = await user(200);
    const { client: stranger } = await user(200);
    const { session, run } = await completedRun(client);
    expect((await stranger.post(`/api/ai/chat/${run.id}/regenerate`)).statusCode).toBe(404);
    expect((await client.post("/api/ai/chat/nope/regenerate")).statusCode).toBe(404);

    const response = await client.post(`/api/ai/chat/${run.id}/regenerate`);
    expect(response.statusCode).toBe(202);
    const again = response.json();
    expect(again.message_id).toBe(run.message_id);
    expect(again.run_id).not.toBe(run.id);
    const events = await runs.waitForRunEnd(client, session.id, again.run_id);
    expect(events[0]).toMatchObject({ type: "run.started", message: { id: run.message_id } });
    expect(events.at(-1)?.type).toBe("run.completed");

    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.runs.map((r: TRun) => [r.id, r.message_id, r.status])).toEqual([
      [run.id, run.message_id, "completed"],
      [again.run_id, run.message_id, "completed"],
    ]);
    expect(detail.messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "assistant",
    ]);
  });
});

describe("re-runs and running work", () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "30", SIGNUP_CREDITS: "0" });
    await slow.app.ready();
  });
  afterAll(() => slow.close());

  it("answers 409 while the run is still going", async () => {
    const signed = await signUpWithCredits(slow.app, 200);
    const { client } = signed;
    const session = await runs.createSession(client, runs.CODER_AND_CRITIC);
    const { run_id } = await runs.sendMessage(client, session.id, "Write a CSV parser");
    const early = await client.post(rerunUrl(session.id, run_id, "s1"), { model: "coquick" });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe("run_in_progress");
    const answer = await client.post(
      `/api/sessions/${session.id}/runs/${run_id}/steps/s1/versions/2/synthesize`,
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error.code).toBe("run_in_progress");
    await client.post(`/api/ai/chat/${run_id}/cancel`);
    await runs.waitForRunEnd(client, session.id, run_id);
    expect((await balanceOf(slow.app, signed.user.id)).held).toBe(0);
  });

  it("gives a lane stopped mid-stream the tokens it used (estimated), charged for what it showed", async () => {
    const signed = await signUpWithCredits(slow.app, 200);
    const { client } = signed;
    const session = await runs.createSession(client, runs.CODER_AND_CRITIC);
    const { run_id } = await runs.sendMessage(client, session.id, "Write a CSV parser");
    await runs.waitForEvent(
      client,
      session.id,
      (e) => e.type === "agent.delta" && e.kind === "agent",
    );
    await client.post(`/api/ai/chat/${run_id}/cancel`);
    const events = await runs.waitForRunEnd(client, session.id, run_id);
    const stopped = runs.eventsOf(events, "agent.done").find((e) => e.status === "stopped");
    const text = events
      .filter((e) => e.type === "agent.delta" && e.call_id === stopped?.call_id)
      .map((e) => (e.type === "agent.delta" ? e.text : ""))
      .join("");
    expect(text.length).toBeGreaterThan(0);
    expect(stopped).toMatchObject({ usage_estimated: true });
    expect(stopped?.credits).toBeGreaterThan(0);
    expect(stopped?.output_tokens).toBeGreaterThan(0);
    expect(stopped?.input_tokens).toBeGreaterThan(0);
    const run = await runOf(client, session.id, run_id);
    expect(run.steps.find((s) => s.id === stopped?.call_id)).toMatchObject({
      status: "stopped",
      credits: stopped?.credits,
      output: text,
      output_tokens: stopped?.output_tokens,
    });
  });

  it("keeps new messages out while a step is re-run, and the run's stop ends the re-run, releasing its hold", async () => {
    const paced = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "150", SIGNUP_CREDITS: "0" });
    try {
      await paced.app.ready();
      const signed = await signUpWithCredits(paced.app, 200);
      const { client } = signed;
      const session = await runs.createSession(client, runs.CODER_AND_CRITIC);
      const { run_id } = await runs.runToEnd(client, session.id, "Write a CSV parser", 60_000);
      const run = await runOf(client, session.id, run_id);
      const step = run.plan?.steps.find((s) => s.role === "coder")?.id ?? "";
      const before = await balanceOf(paced.app, signed.user.id);
      const started = await client.post(rerunUrl(session.id, run_id, step), { model: "coquick" });
      expect(started.statusCode).toBe(202);
      const { call_id } = started.json();

      const message = await client.post("/api/ai/chat", { session_id: session.id, message: "Hi" });
      expect(message.statusCode).toBe(409);
      expect(message.json().error).toMatchObject({
        code: "run_in_progress",
        message: "A step is being re-run in this session. Wait for it to finish or stop it first.",
      });
      expect((await client.post(`/api/ai/chat/${run_id}/regenerate`)).statusCode).toBe(409);

      const stop = await client.post(`/api/ai/chat/${run_id}/cancel`);
      expect(stop.json()).toEqual({ run_id, status: "completed" });
      expect(paced.app.orchestration.control.busy(run_id)).toBe(false);
      const after = await runOf(client, session.id, run_id);
      // Charged for what it showed before the stop (decision 053): nothing when the stop came
      // before its first token, else the price of the text shown, taken from the balance once.
      const stopped = after.steps.find((s) => s.id === call_id);
      expect(stopped).toMatchObject({ status: "stopped", stopped: true, version: 2 });
      const balance = await balanceOf(paced.app, signed.user.id);
      expect(balance.held).toBe(0);
      const charged = Math.round((before.balance - balance.balance) * 100) / 100;
      expect(stopped?.credits).toBe(charged);
      if (stopped?.output === "") expect(charged).toBe(0);
      else expect(charged).toBeGreaterThan(0);
      expect(after.status).toBe("completed");
      const done = runs
        .eventsOf(await runs.sessionEvents(client, session.id), "agent.done")
        .find((e) => e.call_id === call_id);
      expect(done).toMatchObject({ status: "stopped", credits: charged });

      // A stopped version is no draft to write an answer from.
      const rewrite = await client.post(
        `/api/sessions/${session.id}/runs/${run_id}/steps/${step}/versions/2/synthesize`,
      );
      expect(rewrite.statusCode).toBe(409);
      expect(rewrite.json().error).toMatchObject({
        code: "version_not_completed",
        message:
          "Version 2 of this step did not finish, so the answer cannot be written from it. Re-run the step again.",
      });
    } finally {
      await paced.close();
    }
  });
});

import { setTimeout as sleep } from "node:timers/promises";
import {
  applyPlanDelta,
  CLIENT_EVENTS,
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TPlanDraft,
  type TRunEvent,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import type { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { createSession, eventsOf, runToEnd, sendMessage, waitForRunEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { socketOpener } from "./support/sockets";

/** The plan streams into the view as the coordinator writes it (decision 079). */

let t: TestApp;
let fake: FakeProviderServer;
let url: string;
const opener = socketOpener(() => url);

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp());
  url = await listenLocally(t.app);
});
afterAll(async () => {
  opener.closeAll();
  await t?.close();
});
beforeEach(() => fake.reset());

const PLAN = {
  rationale: "A strategist frames the tracker, then a coder builds the API from that frame.",
  steps: [
    { id: "s1", role: "strategist", task: "Frame the task tracker's scope", dependsOn: [] },
    { id: "s2", role: "coder", task: "Write the REST API for the tasks", dependsOn: ["s1"] },
  ],
};

async function signedIn() {
  const signed = await signUpWithCredits(t.app, 200);
  return signed;
}

async function joined(token: string, sessionId: string, lastSeq?: number) {
  const socket = opener.open({ token });
  const live: TRunEvent[] = [];
  socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => live.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  const ack = (await socket
    .timeout(5_000)
    .emitWithAck(
      CLIENT_EVENTS.joinSession,
      lastSeq === undefined ? { sessionId } : { sessionId, lastSeq },
    )) as TJoinSessionAck;
  if (!ack.ok) throw new Error(ack.error);
  return { socket, live, backlog: ack.backlog };
}

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
};

/** What a client shows of the plan as it forms: the plan.delta events added up. */
function draftOf(events: readonly TRunEvent[]): TPlanDraft | null {
  let draft: TPlanDraft | null = null;
  for (const event of eventsOf(events, "plan.delta")) draft = applyPlanDelta(draft, event);
  return draft;
}

describe("the plan's preview", () => {
  it("streams the rationale and the steps before run.plan, which stays the plan", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    const { live } = await joined(owner.token, session.id);
    fake.next(
      { json: PLAN, chunkDelayMs: 30 },
      { text: "The scope." },
      { text: "The API." },
      { text: "The answer." },
    );
    const { run_id } = await sendMessage(owner.client, session.id, "Build a task tracker");

    // The first words of the plan are on the socket while the coordinator is still writing.
    await until(() => live.some((e) => e.type === "plan.delta"), "a plan.delta");
    expect(live.some((e) => e.type === "run.plan")).toBe(false);
    const first = eventsOf(live, "plan.delta")[0];
    expect(first?.rationale.length ?? 0).toBeLessThan(PLAN.rationale.length);

    const stored = await waitForRunEnd(owner.client, session.id, run_id);
    await until(() => live.some((e) => e.type === "run.completed"), "the run's end");
    const types = live.map((e) => e.type);
    const planAt = types.indexOf("run.plan");
    expect(types.lastIndexOf("plan.delta")).toBeLessThan(planAt);
    expect(types.indexOf("plan.delta")).toBeGreaterThan(types.indexOf("run.started"));
    // Gathered like lane text: several events over the 30 ms chunks, not one per chunk.
    const deltas = eventsOf(live, "plan.delta");
    expect(deltas.length).toBeGreaterThan(2);
    expect(new Set(deltas.map((d) => d.call_id)).size).toBe(1);

    const draft = draftOf(live);
    expect(draft).toEqual({
      callId: deltas[0]?.call_id,
      rationale: PLAN.rationale,
      steps: [
        { role: "strategist", task: "Frame the task tracker's scope" },
        { role: "coder", task: "Write the REST API for the tasks" },
      ],
    });
    const [plan] = eventsOf(live, "run.plan");
    expect(plan?.plan.rationale).toBe(PLAN.rationale);
    expect(plan?.plan.steps.map((s) => [s.id, s.role, s.task])).toEqual([
      ["s1", "strategist", "Frame the task tracker's scope"],
      ["s2", "coder", "Write the REST API for the tasks"],
    ]);
    expect(live).toEqual(stored);
  });

  it("replays the preview and the one final plan after the run; the stored run has the plan", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    fake.next({ json: PLAN, chunkDelayMs: 5 }, { text: "A." }, { text: "B." }, { text: "C." });
    const { run_id } = await runToEnd(owner.client, session.id, "Build a task tracker");

    const { backlog } = await joined(owner.token, session.id, 0);
    const plans = eventsOf(backlog, "run.plan");
    expect(plans).toHaveLength(1);
    const types = backlog.map((e) => e.type);
    expect(types.lastIndexOf("plan.delta")).toBeLessThan(types.indexOf("run.plan"));
    expect(draftOf(backlog)?.rationale).toBe(PLAN.rationale);

    const detail = await owner.client.get(`/api/sessions/${session.id}`);
    expect(detail.statusCode).toBe(200);
    const [run] = detail.json().runs as { id: string; plan: unknown }[];
    expect(run?.id).toBe(run_id);
    expect(run?.plan).toEqual(plans[0]?.plan);
  });

  it("starts the draft again for the repair attempt's call", async () => {
    const owner = await signedIn();
    const session = await createSession(owner.client);
    const broken = {
      rationale: "Only a critic.",
      steps: [{ id: "c1", role: "critic", task: "Review nothing", dependsOn: [] }],
    };
    fake.next(
      { json: broken, chunkDelayMs: 5 },
      { json: PLAN, chunkDelayMs: 5 },
      { text: "A." },
      { text: "B." },
      { text: "C." },
    );
    const { events } = await runToEnd(owner.client, session.id, "Build a task tracker");
    const calls = [...new Set(eventsOf(events, "plan.delta").map((d) => d.call_id))];
    expect(calls).toHaveLength(2);
    const [plan] = eventsOf(events, "run.plan");
    expect(plan?.repaired).toBe(true);
    const draft = draftOf(events);
    expect(draft?.callId).toBe(calls[1]);
    expect(draft?.rationale).toBe(PLAN.rationale);
    expect(draft?.steps.map((s) => s.role)).toEqual(["strategist", "coder"]);
  });
});

describe("the simulator's plan", () => {
  it("streams too", async () => {
    const sim = await createTestApp({});
    try {
      const signed = await signUpWithCredits(sim.app, 200);
      const session = await createSession(signed.client);
      const { events } = await runToEnd(signed.client, session.id, "Plan a small garden");
      const [plan] = eventsOf(events, "run.plan");
      expect(plan).toBeDefined();
      const draft = draftOf(events);
      expect(draft?.rationale).toBe(plan?.plan.rationale);
      expect(draft?.steps.length).toBeGreaterThan(0);
      const types = events.map((e) => e.type);
      expect(types.lastIndexOf("plan.delta")).toBeLessThan(types.indexOf("run.plan"));
    } finally {
      await sim.close();
    }
  });
});

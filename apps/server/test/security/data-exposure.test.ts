import type { TMemory, TSharedView, TShareLink } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type SignedUp } from "../support/accounts";
import { createTestApp, listenLocally, type TestApp } from "../support/app";
import { createSession, runToEnd, sendMessage } from "../support/runs";
import { signUpWithCredits } from "../support/runs-credits";
import { openShareStream } from "../support/share-stream";
import type { SseEvent } from "../support/sse";

/**
 * Advisory class: data exposure through a public surface. A share link shows a run through
 * its static view and through its live stream (backlog and live events), for a session or
 * for one run. Whatever way a stranger looks, they see the same fields of the run, and
 * never the approved memories the run used (the owner's private notes, decision 045/051).
 */

const ADMIN = { ADMIN_EMAIL: "admin@data-exposure.test", ADMIN_PASSWORD: "data-exposure-pass" };
const TASK =
  "I prefer TypeScript with strict types. We use PostgreSQL for storage. Build an order tracker for our bakery.";

let t: TestApp;
let url = "";

beforeAll(async () => {
  t = await createTestApp({ ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  url = await listenLocally(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A Pro+ user (memory is a paid feature) with an approved memory from a first run. */
async function ownerWithMemory(): Promise<{ owner: SignedUp; sessionId: string; memory: TMemory }> {
  const owner = await signUpWithCredits(t.app, 300);
  const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  const tier = await admin.put(`/api/admin/users/${owner.user.id}/tier`, { tier: "pro+" });
  expect(tier.statusCode).toBe(200);
  const session = await createSession(owner.client);
  const { run_id } = await runToEnd(owner.client, session.id, TASK);
  const deadline = Date.now() + 20_000;
  let proposals: TMemory[] = [];
  while (proposals.length === 0) {
    if (Date.now() > deadline) throw new Error("no memories were proposed");
    await new Promise((resolve) => setTimeout(resolve, 50));
    proposals = (await owner.client.get(`/api/memory/runs/${run_id}/proposals`)).json().memories;
  }
  const chosen = proposals.find((m) => /typescript/i.test(m.text)) ?? (proposals[0] as TMemory);
  const approved = await owner.client.post(`/api/memory/${chosen.id}/approve`, {});
  expect(approved.statusCode).toBe(200);
  return { owner, sessionId: session.id, memory: approved.json().memory as TMemory };
}

async function share(owner: SignedUp, sessionId: string, body: Record<string, unknown>) {
  const response = await owner.client.post(`/api/sessions/${sessionId}/shares`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().share as TShareLink;
}

async function staticView(token: string): Promise<TSharedView> {
  const response = await fetch(`${url}/api/share/${token}`);
  expect(response.status).toBe(200);
  return (await response.json()) as TSharedView;
}

const runEvents = (events: SseEvent[], runId: string) =>
  events.filter((e) => e.event === "run" && e.data.run_id === runId).map((e) => e.data);
const completed = (runId: string) => (events: SseEvent[]) =>
  runEvents(events, runId).some((e) => e.type === "run.completed");

describe("a share shows a run the same way everywhere", () => {
  it("never sends the memories a run used: the stream's plan is the static view's, field by field", async () => {
    const { owner, sessionId, memory } = await ownerWithMemory();
    const link = await share(owner, sessionId, { live: true });
    const before = await staticView(link.token);
    const live = await openShareStream(url, link.token, before.last_seq);
    await live.readUntil((events) => events.some((e) => e.event === "open"));

    // A second run: the approved memory goes into its plan.
    const { run_id } = await sendMessage(
      owner.client,
      sessionId,
      "Add a TypeScript report of the orders per day",
    );
    await live.readUntil(completed(run_id));
    live.close();
    const own = (await owner.client.get(`/api/sessions/${sessionId}`)).json();
    const ownRun = own.runs.find((r: { id: string }) => r.id === run_id);
    // The owner's own view has the memory: the run did use it.
    expect(ownRun.plan.memories).toContainEqual({ id: memory.id, text: memory.text });

    const streamed = runEvents(live.received, run_id);
    const view = await staticView(link.token);
    const shown = view.runs.find((r) => r.id === run_id);
    const plan = streamed.find((e) => e.type === "run.plan");
    expect(plan.plan).toEqual(shown?.plan);
    expect(Object.keys(plan.plan).sort()).toEqual(Object.keys(shown?.plan ?? {}).sort());
    expect(Object.keys(plan.plan)).not.toContain("memories");
    // Every agent's numbers as the view has them, costs hidden in both.
    for (const done of streamed.filter((e) => e.type === "agent.done")) {
      const step = shown?.steps.find((s) => s.id === done.call_id);
      expect({ out: done.output_tokens, credits: done.credits }).toEqual({
        out: step?.output_tokens,
        credits: step?.credits,
      });
    }
    // The memory's text is nowhere in what a stranger gets.
    expect(JSON.stringify(streamed)).not.toContain(memory.text);
    expect(JSON.stringify(view)).not.toContain(memory.text);

    // Replayed from the start (the stored backlog), the run's events are the live ones.
    const replay = await openShareStream(url, link.token, 0);
    await replay.readUntil(completed(run_id));
    replay.close();
    expect(runEvents(replay.received, run_id)).toEqual(streamed);

    // A link to that run alone: the same projection again.
    const runLink = await share(owner, sessionId, { live: true, run_id });
    const runView = await staticView(runLink.token);
    expect(runView.runs.map((r) => r.id)).toEqual([run_id]);
    expect(runView.runs[0]?.plan).toEqual(shown?.plan);
    const runStream = await openShareStream(url, runLink.token, 0);
    await runStream.readUntil(completed(run_id));
    runStream.close();
    const runOnly = runStream.received.filter((e) => e.event === "run").map((e) => e.data);
    expect(runOnly).toEqual(streamed);
    expect(JSON.stringify(runOnly)).not.toContain(memory.text);
  });
});

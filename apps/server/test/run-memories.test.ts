import type { TMemory, TRun, TRunEvent, TRunEventOf, TSubscriptionTier } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type SignedUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * Memories in runs (decision 037), on the simulator: a completed run has the coordinator
 * propose memories on its own (after the run's end), an approved memory relevant to a new
 * task goes into that run's plan and is shown and stored as "used memories".
 */

const ADMIN = { ADMIN_EMAIL: "admin@run-memories.test", ADMIN_PASSWORD: "run-memories-passphrase" };
const TASK =
  "I prefer TypeScript with strict types. We use PostgreSQL for storage. Build an order tracker for our bakery.";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
});

async function userWithTier(tier: TSubscriptionTier): Promise<SignedUp> {
  const signed = await signUpWithCredits(t.app, 300);
  if (tier !== "free") {
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    expect((await admin.put(`/api/admin/users/${signed.user.id}/tier`, { tier })).statusCode).toBe(
      200,
    );
  }
  return signed;
}

async function run(signed: SignedUp, message: string) {
  const session = await createSession(signed.client);
  const { run_id, events } = await runToEnd(signed.client, session.id, message);
  expect(events.at(-1)?.type).toBe("run.completed");
  return { sessionId: session.id, runId: run_id, events };
}

/** The run's proposals, once the engine's memory step after the run has stored them. */
async function proposalsOf(signed: SignedUp, runId: string): Promise<TMemory[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const response = await signed.client.get(`/api/memory/runs/${runId}/proposals`);
    expect(response.statusCode).toBe(200);
    const memories = response.json().memories as TMemory[];
    if (memories.length > 0) return memories;
    if (Date.now() > deadline) throw new Error(`run ${runId} proposed no memories`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const planOf = (events: readonly TRunEvent[]) =>
  events.find((e): e is TRunEventOf<"run.plan"> => e.type === "run.plan")?.plan;

describe("memories in runs", () => {
  it("proposes after a run, and puts an approved memory into the next run's plan", async () => {
    const signed = await userWithTier("pro+");
    const first = await run(signed, TASK);
    // Nothing approved yet: the first run used no memories.
    expect(planOf(first.events)?.memories).toBeUndefined();

    // The engine asked for proposals by itself once the run had ended.
    const proposals = await proposalsOf(signed, first.runId);
    expect(proposals.every((m) => m.status === "proposed")).toBe(true);
    const chosen = proposals.find((m) => /typescript/i.test(m.text)) ?? proposals[0];
    const approved = await signed.client.post(`/api/memory/${chosen?.id}/approve`, {});
    expect(approved.statusCode).toBe(200);
    const memory = approved.json().memory as TMemory;

    const second = await run(signed, "Add a TypeScript report of the bakery orders per day");
    const used = planOf(second.events)?.memories ?? [];
    expect(used).toContainEqual({ id: memory.id, text: memory.text });
    // Only approved memories: the proposals left undecided are not used.
    const undecided = proposals.filter((m) => m.id !== memory.id).map((m) => m.id);
    expect(used.some((m) => undecided.includes(m.id))).toBe(false);

    // Kept with the run for replay.
    const detail = (await signed.client.get(`/api/sessions/${second.sessionId}`)).json();
    const stored = detail.runs.find((r: TRun) => r.id === second.runId) as TRun;
    expect(stored.memories).toEqual(used);
    expect(stored.plan?.memories).toEqual(used);
  });

  it("uses and proposes none for a plan without memory", async () => {
    const signed = await userWithTier("free");
    const first = await run(signed, TASK);
    expect(planOf(first.events)?.memories).toBeUndefined();
    const response = await signed.client.get(`/api/memory/runs/${first.runId}/proposals`);
    // The gate answers for a free plan; either way nothing was stored for the run.
    if (response.statusCode === 200) expect(response.json().memories).toEqual([]);
    else expect(response.statusCode).toBe(403);
    const { rows } = await t.db.query("SELECT 1 FROM memories WHERE user_id = $1", [
      signed.user.id,
    ]);
    expect(rows).toEqual([]);
    const detail = (await signed.client.get(`/api/sessions/${first.sessionId}`)).json();
    expect((detail.runs.at(-1) as TRun).memories).toEqual([]);
  });
});

import type { TRunEvent } from "@cohort/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RUN_ENDS, sessionEvents } from "./support/api";
import { FaultCluster, ONE_CODER_PLAN } from "./support/cluster";
import type { Instance } from "./support/instance";
import { checkInvariants, type SentMessage, waitForQuiet } from "./support/invariants";
import { SessionWatcher } from "./support/session-watcher";
import { longDraft } from "./support/texts";
import { waitFor } from "./support/wait";

/**
 * An instance killed (SIGKILL) while its run streams: within 30 s another instance resumes
 * the run from its last completed step (decision 047). The client sees `run.resumed`, then
 * the rest of the run and its end; the completed plan is neither called nor paid again, the
 * killed call's hold is released and the call made again.
 */
let cluster: FaultCluster;
let watcher: SessionWatcher | undefined;

beforeAll(async () => {
  cluster = await FaultCluster.start({ instances: 2 });
});
afterAll(async () => {
  watcher?.close();
  await cluster?.close();
});

it("resumes a run on another instance after its instance is killed mid-stream", async () => {
  cluster.reportOnFailure();
  const user = await cluster.payingUser();
  // The plan at once; the Coder's draft slowly (60 words, 100 ms apart): it is mid-stream
  // when its instance dies. What comes after (the draft again, the synthesis) comes at once.
  cluster.fake.next({ json: ONE_CODER_PLAN }, { text: longDraft(60), chunkDelayMs: 100 });
  const sent = await cluster.sendInNewSession(
    cluster.instance(0),
    user,
    "Write a CSV parser that survives a crash",
  );

  // Whichever instance runs it is the one whose provider route has the draft's call open.
  const running = await waitFor(20_000, "the Coder's draft streaming", async () => {
    const events = await sessionEvents(cluster.instance(0).url, user.token, sent.sessionId);
    if (!events.some((e) => e.type === "agent.delta")) return undefined;
    return cluster.instances.find((i) => cluster.route(i).inFlight > 0);
  });
  const survivor = cluster.instances.find((i) => i !== running) as Instance;
  watcher = await SessionWatcher.open(survivor, user.token, sent.sessionId);
  const killedCall = await runningCall(sent);

  await running.kill();

  const resumed = await waitFor(
    35_000,
    "run.resumed on the client of the other instance within 30 s",
    () => watcher?.shown.find((e) => e.type === "run.resumed"),
    { intervalMs: 200, describe: () => (watcher?.shown ?? []).map((e) => e.type).join(", ") },
  );
  expect(resumed).toMatchObject({
    type: "run.resumed",
    run_id: sent.runId,
    from_status: "running",
    reused_steps: 1,
    attempt: 1,
  });
  const end = await waitFor(30_000, "the resumed run's end on the client", () =>
    watcher?.shown.find((e) => RUN_ENDS.has(e.type)),
  );
  expect(end.type).toBe("run.completed");

  // After run.resumed: the draft again in a new call, then the synthesis and the end.
  const shown = watcher.shown;
  const after = shown.slice(shown.indexOf(resumed) + 1);
  const again = after.find(
    (e): e is Extract<TRunEvent, { type: "agent.started" }> =>
      e.type === "agent.started" && e.step_id === "s1",
  );
  expect(again?.call_id).toBeDefined();
  expect(again?.call_id).not.toBe(killedCall.id);
  expect(after.map((e) => e.type)).toEqual(
    expect.arrayContaining(["agent.started", "agent.done", "final.delta", "run.completed"]),
  );
  // The client saw every stored event once, in seq order.
  const stored = await sessionEvents(survivor.url, user.token, sent.sessionId);
  expect(shown.map((e) => e.seq)).toEqual(stored.map((e) => e.seq));

  await waitForQuiet(cluster);
  const steps = await cluster.postgres.query<{
    id: string;
    kind: string;
    step_id: string | null;
    status: string;
    hold_id: string | null;
  }>(
    "SELECT id, kind, step_id, status, hold_id FROM run_steps WHERE run_id = $1 ORDER BY started_at",
    [sent.runId],
  );
  expect(steps.map((s) => [s.kind, s.step_id, s.status])).toEqual([
    ["plan", null, "completed"],
    ["agent", "s1", "stopped"],
    ["agent", "s1", "completed"],
    ["synthesis", null, "completed"],
  ]);
  // The plan was asked for once: one JSON request in all.
  expect(
    cluster.fake.requests.filter((r) => JSON.stringify(r.body).includes("run_plan")),
  ).toHaveLength(1);
  // The killed call's hold was released, not charged; each completed call was charged once.
  const killed = steps.find((s) => s.id === killedCall.id);
  const [hold] = await cluster.postgres.query<{ status: string; charged: string }>(
    "SELECT status, charged::text FROM credit_holds WHERE id = $1",
    [killed?.hold_id],
  );
  expect(hold).toEqual({ status: "released", charged: "0" });
  const charges = await cluster.postgres.query<{ reference: string }>(
    "SELECT reference FROM credit_ledger WHERE reason = 'usage' AND reference LIKE $1 ORDER BY id",
    [`run:${sent.runId}:%`],
  );
  expect(charges.map((c) => c.reference).sort()).toEqual(
    steps
      .filter((s) => s.status === "completed")
      .map((s) => `run:${sent.runId}:${s.id}`)
      .sort(),
  );
  await checkInvariants(cluster, [sent]);
});

/** The run's step that is running now (the call the kill interrupts). */
async function runningCall(sent: SentMessage): Promise<{ id: string }> {
  const [row] = await cluster.postgres.query<{ id: string }>(
    "SELECT id FROM run_steps WHERE run_id = $1 AND status = 'running'",
    [sent.runId],
  );
  if (!row) throw new Error("no running step to interrupt");
  return row;
}

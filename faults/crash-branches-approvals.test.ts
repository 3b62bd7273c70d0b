import {
  BRANCH_ROUTES,
  type TChatResponse,
  type TDocumentResponse,
  type TDocumentsResponse,
  type TRun,
  type TRunEvent,
  type TSession,
  type TSessionDetailResponse,
  type TToolApprovalsResponse,
} from "@cohort/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiCall, type HttpMethod } from "../test-support/api-client.mjs";
import {
  adminToken,
  type FaultUser,
  grantCredits,
  RUN_ENDS,
  sessionDetail,
  sessionEvents,
  signUp,
} from "./support/api";
import { ADMIN_EMAIL, ADMIN_PASSWORD, FaultCluster } from "./support/cluster";
import type { Instance } from "./support/instance";
import { checkInvariants, type SentMessage, waitForQuiet } from "./support/invariants";
import { waitFor } from "./support/wait";

/**
 * A crash (SIGKILL) loses nothing of a conversation's branches, forks and pending approvals
 * (decisions 069 and 059), on PostgreSQL with the queue on Redis, against the built server and the
 * built-in simulator (no provider key). One instance at a time: it is killed, and another
 * starts on the same database, as a restart after a crash does. The simulator's pace is set
 * per instance: at once where a test only needs the work done, slow where a call must still
 * stream when the kill comes.
 */
let cluster: FaultCluster;
/** The instance that runs now (the killed ones stay in cluster.instances for the report). */
let live: Instance;
let restarts = 0;

const AT_ONCE = { SIMULATOR_TOKENS_PER_SECOND: "0" };
/** Slow enough that a lane streams for many seconds (a Coder's draft is hundreds of tokens). */
const SLOW = { SIMULATOR_TOKENS_PER_SECOND: "20" };

beforeAll(async () => {
  // The simulator charges as a priced model does, so what a call costs can be checked.
  cluster = await FaultCluster.start({
    instances: 1,
    simulator: true,
    env: { ...AT_ONCE, SIMULATOR_CHARGES: "1" },
  });
  live = cluster.instance(0);
});
afterAll(async () => {
  await cluster?.close();
});

/** Another instance on the same database and Redis (after a kill: the restart). */
async function startAnother(env: Record<string, string>): Promise<Instance> {
  restarts += 1;
  live = await cluster.startInstance(`app${restarts + 1}`, env);
  return live;
}

const TEAM = {
  title: "Branches survive a crash",
  manual_agent_selection: true,
  agent_preferences: {
    strategist: { enabled: true, model: "coreason" },
    coder: { enabled: true, model: "cologic" },
    critic: { enabled: true, model: "coreason" },
  },
};

function call<T>(method: HttpMethod, path: string, token: string, body?: unknown): Promise<T> {
  return apiCall<T>(live.url, method, path, { bearer: token, body });
}

async function runEnd(user: FaultUser, sessionId: string, runId: string, ms = 45_000) {
  return waitFor(
    ms,
    `the end of run ${runId}`,
    async () =>
      (await sessionEvents(live.url, user.token, sessionId)).find(
        (e) => e.run_id === runId && RUN_ENDS.has(e.type),
      ),
    { intervalMs: 250 },
  );
}

/** The run as the session's detail shows it. */
function runOf(detail: TSessionDetailResponse, runId: string): TRun {
  const run = detail.runs.find((r) => r.id === runId);
  if (!run) throw new Error(`run ${runId} is not in the session`);
  return run;
}

it("keeps every branch and fork exactly through a SIGKILL during the fork; the fork ends once, charged for what ran", async () => {
  cluster.reportOnFailure();
  const user = await payingUser();
  const { session } = await call<{ session: TSession }>("POST", "/api/sessions", user.token, TEAM);

  // Branch 1: the first message and its run.
  const firstText = "Write a Python function that parses CSV";
  const first = await call<TChatResponse>("POST", "/api/ai/chat", user.token, {
    session_id: session.id,
    message: firstText,
  });
  expect((await runEnd(user, session.id, first.run_id)).type).toBe("run.completed");
  // Branch 2: the message edited in place, with a run of its own.
  const editedText = "Write a Python function that parses TSV";
  const edited = await call<TChatResponse>(
    "POST",
    BRANCH_ROUTES.edit(session.id, first.message_id),
    user.token,
    { message: editedText },
  );
  expect(edited.message_id).not.toBe(first.message_id);
  expect((await runEnd(user, session.id, edited.run_id)).type).toBe("run.completed");
  await waitForQuiet(cluster);

  // A reload (a restart, here a clean one to slow the simulator down) reads back the same.
  const beforeRestart = await sessionDetail(live.url, user.token, session.id);
  const eventsBeforeRestart = await sessionEvents(live.url, user.token, session.id);
  await live.terminate();
  await startAnother(SLOW);
  expect(await sessionDetail(live.url, user.token, session.id)).toEqual(beforeRestart);
  expect(await sessionEvents(live.url, user.token, session.id)).toEqual(eventsBeforeRestart);

  // The fork: the first branch's run, from its Coder's step, on another model.
  const original = runOf(beforeRestart, first.run_id);
  const coder = original.plan?.steps.find((s) => s.role === "coder" && s.phase === "agent");
  if (!coder) throw new Error("the plan has no Coder step");
  const forked = await call<TChatResponse>(
    "POST",
    BRANCH_ROUTES.fork(session.id, first.run_id, coder.id),
    user.token,
    { model: "coquick" },
  );
  expect(forked.message_id).toBe(first.message_id);
  // Killed while the re-run Coder streams.
  await waitFor(
    30_000,
    "the fork's Coder streaming",
    async () =>
      (await sessionEvents(live.url, user.token, session.id)).find(
        (e) => e.run_id === forked.run_id && e.type === "agent.delta" && e.step_id === coder.id,
      ),
    { intervalMs: 200 },
  );
  const atKill = await sessionDetail(live.url, user.token, session.id);
  const eventsAtKill = await sessionEvents(live.url, user.token, session.id);
  const forkAtKill = runOf(atKill, forked.run_id);
  expect(forkAtKill.status).toBe("running");
  const interrupted = forkAtKill.steps.filter((s) => s.status === "running");
  expect(interrupted.map((s) => [s.kind, s.step_id])).toEqual([["agent", coder.id]]);
  await live.kill();

  await startAnother(AT_ONCE);
  // Everything stored up to the kill reads back exactly: the events (a reload's replay)...
  const replayed = await sessionEvents(live.url, user.token, session.id);
  const lastSeq = eventsAtKill.at(-1)?.seq ?? 0;
  expect(replayed.filter((e) => e.seq <= lastSeq)).toEqual(eventsAtKill);
  // ...the two branches, their messages and runs, unchanged...
  const after = await sessionDetail(live.url, user.token, session.id);
  expect(after.messages.filter((m) => atKill.messages.some((k) => k.id === m.id))).toEqual(
    atKill.messages,
  );
  for (const runId of [first.run_id, edited.run_id]) {
    expect(runOf(after, runId)).toEqual(runOf(atKill, runId));
  }
  // ...and the fork: its origin, plan and copied steps as they were.
  const forkNow = runOf(after, forked.run_id);
  expect(forkNow.fork).toEqual(forkAtKill.fork);
  expect(forkNow.plan).toEqual(forkAtKill.plan);
  const copiedAtKill = forkAtKill.steps.filter((s) => s.copied);
  expect(copiedAtKill.length).toBeGreaterThan(0);
  expect(forkNow.steps.filter((s) => s.copied)).toEqual(copiedAtKill);
  expect(copiedAtKill.every((s) => s.credits === 0)).toBe(true);

  // The interrupted fork goes on from its kept steps on the new instance and ends once.
  const end = await runEnd(user, session.id, forked.run_id);
  const forkEvents = (await sessionEvents(live.url, user.token, session.id)).filter(
    (e) => e.run_id === forked.run_id,
  );
  expect(forkEvents.filter((e) => RUN_ENDS.has(e.type))).toEqual([end]);
  expect(end.type).toBe("run.completed");
  expect(forkEvents.find((e) => e.type === "run.resumed")).toMatchObject({
    type: "run.resumed",
    from_status: "running",
    // The fork's first execution was not a resumption: this is its first.
    attempt: 1,
  });
  await waitForQuiet(cluster);

  const final = await sessionDetail(live.url, user.token, session.id);
  const fork = runOf(final, forked.run_id);
  expect(fork.status).toBe("completed");
  expect(fork.steps.filter((s) => s.copied)).toEqual(copiedAtKill);
  // The killed call: stopped, nothing charged; then the Coder again, on the fork's model.
  const killed = fork.steps.find((s) => s.id === interrupted[0]?.id);
  expect(killed).toMatchObject({ status: "stopped", credits: 0 });
  const coderCalls = fork.steps.filter((s) => s.kind === "agent" && s.step_id === coder.id);
  expect(coderCalls.map((s) => [s.status, s.model])).toEqual([
    ["stopped", "coquick"],
    ["completed", "coquick"],
  ]);
  // Charged for what ran: the fork's calls that completed, each once; copies and the killed
  // call not at all.
  const ran = fork.steps.filter((s) => !s.copied);
  const ranTotal = Math.round(ran.reduce((sum, s) => sum + s.credits, 0) * 100) / 100;
  expect(fork.total_credits).toBeCloseTo(ranTotal, 2);
  expect(fork.total_credits).toBeGreaterThan(0);
  const charges = await cluster.postgres.query<{ reference: string }>(
    "SELECT reference FROM credit_ledger WHERE reason = 'usage' AND reference LIKE $1",
    [`run:${forked.run_id}:%`],
  );
  expect(charges.map((c) => c.reference).sort()).toEqual(
    ran
      .filter((s) => s.status === "completed" && s.credits > 0)
      .map((s) => `run:${forked.run_id}:${s.id}`)
      .sort(),
  );
  // The branches are still exactly as they were.
  for (const runId of [first.run_id, edited.run_id]) {
    expect(runOf(final, runId)).toEqual(runOf(atKill, runId));
  }
  const sent: SentMessage[] = [
    { ...ids(user, session.id), runId: first.run_id, messageId: first.message_id, text: firstText },
    {
      ...ids(user, session.id),
      runId: edited.run_id,
      messageId: edited.message_id,
      text: editedText,
    },
  ];
  await checkInvariants(cluster, sent);
});

it("runs a tool call approved after a SIGKILL during its pending approval once", async () => {
  cluster.reportOnFailure();
  const user = await payingUser();
  const documentId = await uploadReadyText(
    user,
    "hours.txt",
    "The bakery opens on Mondays at seven in the morning.",
  );
  const { session } = await call<{ session: TSession }>("POST", "/api/sessions", user.token, {
    title: "Survives a crash while asking",
    tools: { policy: "ask_all", roles: {} },
  });
  await call("PUT", `/api/sessions/${session.id}/documents`, user.token, {
    document_ids: [documentId],
  });
  const text = "According to the attached document, when does the bakery open on Mondays?";
  const started = await call<TChatResponse>("POST", "/api/ai/chat", user.token, {
    session_id: session.id,
    message: text,
  });
  const pendingOf = async () =>
    (await call<TToolApprovalsResponse>("GET", `/api/sessions/${session.id}/approvals`, user.token))
      .approvals;
  await waitFor(30_000, "a pending approval", async () =>
    (await pendingOf()).length > 0 ? true : undefined,
  );
  // Lanes that work side by side may each be waiting: kill while every lane that asks does.
  const before = await waitFor(10_000, "the lanes' requests to settle", async () => {
    const first = await pendingOf();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const second = await pendingOf();
    return JSON.stringify(first) === JSON.stringify(second) ? second : undefined;
  });
  const eventsAtKill = await sessionEvents(live.url, user.token, session.id);
  expect(eventsAtKill.some((e) => e.type === "tool.result")).toBe(false);
  await live.kill();
  await startAnother(AT_ONCE);

  // The run is resumed; its lanes find the same requests, still pending, not asked again.
  await waitFor(
    45_000,
    "run.resumed",
    async () =>
      (await sessionEvents(live.url, user.token, session.id)).find(
        (e) => e.run_id === started.run_id && e.type === "run.resumed",
      ),
    { intervalMs: 250 },
  );
  const after = await waitFor(20_000, "the resumed lanes' requests", async () => {
    const now = await pendingOf();
    return now.length === before.length ? now : undefined;
  });
  expect(after.map((a) => [a.id, a.status]).sort()).toEqual(
    before.map((a) => [a.id, "pending"]).sort(),
  );

  // Approve whatever waits (a later lane may ask too) until the run ends.
  const end = await waitFor(
    60_000,
    "the approved run's end",
    async () => {
      for (const approval of await pendingOf()) {
        await call("POST", `/api/sessions/${session.id}/approvals/${approval.id}`, user.token, {
          decision: "approve",
        });
      }
      return (await sessionEvents(live.url, user.token, session.id)).find(
        (e) => e.run_id === started.run_id && RUN_ENDS.has(e.type),
      );
    },
    { intervalMs: 500 },
  );
  expect(end.type).toBe("run.completed");
  await waitForQuiet(cluster);

  const all = await sessionEvents(live.url, user.token, session.id);
  expect(all.filter((e) => e.type === "run.completed")).toHaveLength(1);
  type Of<T extends TRunEvent["type"]> = Extract<TRunEvent, { type: T }>;
  const decided = all.filter(
    (e): e is Of<"tool.approval.decided"> => e.type === "tool.approval.decided",
  );
  const results = all.filter((e): e is Of<"tool.result"> => e.type === "tool.result");
  // Each request answered once, approved; each approved call ran exactly once.
  expect(new Set(decided.map((d) => d.approval_id)).size).toBe(decided.length);
  for (const approval of before) {
    expect(decided.filter((d) => d.approval_id === approval.id)).toHaveLength(1);
  }
  expect(decided.map((d) => [d.decision, d.note])).toEqual(decided.map(() => ["approved", null]));
  for (const d of decided) {
    const ofCall = results.filter((r) => r.tool_call_id === d.tool_call_id);
    expect(ofCall.map((r) => r.status)).toEqual(["completed"]);
  }
  expect(new Set(results.map((r) => r.tool_call_id)).size).toBe(results.length);
  // The run's end was stored once; nothing is held.
  const summary = await call<{ held: number }>("GET", "/api/billing/summary", user.token);
  expect(summary.held).toBe(0);
  await checkInvariants(cluster, [
    { ...ids(user, session.id), runId: started.run_id, messageId: started.message_id, text },
  ]);
});

/** A new account with credits, made through the instance that runs now. */
async function payingUser(): Promise<FaultUser> {
  const user = await signUp(live.url);
  const admin = await adminToken(live.url, ADMIN_EMAIL, ADMIN_PASSWORD);
  await grantCredits(live.url, admin, user.id, 500);
  return user;
}

function ids(user: FaultUser, sessionId: string) {
  return { userId: user.id, token: user.token, sessionId };
}

/** A text document uploaded through the API, once its processing is done. */
async function uploadReadyText(user: FaultUser, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([text], { type: "text/plain" }), name);
  const response = await fetch(`${live.url}/api/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  expect(response.status).toBe(201);
  const { document } = (await response.json()) as TDocumentResponse;
  await waitFor(30_000, "the document ready", async () => {
    const { documents } = await call<TDocumentsResponse>("GET", "/api/documents", user.token);
    return documents.find((d) => d.id === document.id)?.status === "ready" ? true : undefined;
  });
  return document.id;
}

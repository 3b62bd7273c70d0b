import {
  conversationPath,
  type TChatMessage,
  type TRun,
  type TRunEvent,
  type TSessionDetailResponse as TSessionDetail,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelGateway } from "../src/modules/models/gateway";
import type { ToolDefinition } from "../src/modules/tools/tool-definition";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, runToEnd, sessionEvents, waitForRunEnd } from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/** Branches (edit in place, versions of an answer) and forks from a step (decision 070). */
let t: TestApp;

/** What every model call of the app was sent (the gateway is the way out to providers). */
const sent: string[] = [];
/** Each streamed call's prompt and the names of the tools it was offered. */
const offered: { prompt: string; tools: string[] }[] = [];

/** Harmless reading tools (stand-ins for a workspace's MCP tools) a role may be given. */
const readTool = (name: string): ToolDefinition => ({
  name,
  title: name,
  description: `A test tool: ${name}.`,
  input: { kind: "json", schema: { type: "object", properties: { text: { type: "string" } } } },
  risk: "read",
  source: { kind: "builtin" },
  price: 0,
  untrustedOutput: false,
  timeoutMs: 10_000,
  execute: async () => ({ text: "42" }),
});

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
  t.app.tools.addProvider({
    id: "test-readers",
    tools: async () => [readTool("count_words"), readTool("list_notes")],
  });
  const models = t.app.orchestration.deps.models as ModelGateway;
  const stream = models.streamModel.bind(models);
  const plan = models.generatePlan.bind(models);
  Object.assign(models, {
    streamModel: (input: Parameters<ModelGateway["streamModel"]>[0]) => {
      sent.push(JSON.stringify(input.messages));
      offered.push({
        prompt: JSON.stringify(input.messages),
        tools: (input.tools ?? []).map((tool) => tool.name),
      });
      return stream(input);
    },
    generatePlan: (input: Parameters<ModelGateway["generatePlan"]>[0]) => {
      sent.push(JSON.stringify(input.history ?? []));
      return plan(input);
    },
  });
});
afterAll(async () => {
  await t.close();
});

const TEAM = {
  manual_agent_selection: true,
  agent_preferences: {
    strategist: { enabled: true, model: "coreason" },
    coder: { enabled: true, model: "cologic" },
    critic: { enabled: true, model: "coreason" },
  },
};

async function user(credits = 400) {
  const signed = await signUpWithCredits(t.app, credits);
  return signed;
}

async function detailOf(client: TestClient, sessionId: string): Promise<TSessionDetail> {
  const response = await client.get(`/api/sessions/${sessionId}`);
  expect(response.statusCode).toBe(200);
  return response.json() as TSessionDetail;
}

async function send(client: TestClient, sessionId: string, text: string) {
  const started = await runToEnd(client, sessionId, text);
  expect(started.events.at(-1)?.type).toBe("run.completed");
  await t.app.orchestration.control.idle();
  return started;
}

async function ended(client: TestClient, sessionId: string, runId: string) {
  const events = await waitForRunEnd(client, sessionId, runId);
  expect(events.at(-1)?.type).toBe("run.completed");
  await t.app.orchestration.control.idle();
}

/** The texts on screen: each turn's message and its shown answer. */
function onScreen(detail: TSessionDetail): string[] {
  const byId = new Map(detail.messages.map((m) => [m.id, m]));
  return conversationPath(detail.messages, detail.runs).flatMap((turn) => [
    turn.message.content,
    ...(turn.run?.result_message_id ? ["answer"] : []),
    ...(turn.run?.result_message_id && !byId.has(turn.run.result_message_id) ? ["missing"] : []),
  ]);
}

/** A run's events from a fresh replay (what a reload asks for), grouped by run. */
async function replayByRun(client: TestClient, sessionId: string) {
  const events = await sessionEvents(client, sessionId, 0);
  const byRun = new Map<string, TRunEvent[]>();
  for (const e of events) byRun.set(e.run_id, [...(byRun.get(e.run_id) ?? []), e]);
  return byRun;
}

describe("editing a message in place", () => {
  it("makes a branch with its own run; later turns see only the branch on screen", async () => {
    const { client } = await user();
    const session = await createSession(client, TEAM);
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const second = await send(client, session.id, "Now add unit tests for the parser");

    sent.length = 0;
    const edit = await client.post(
      `/api/sessions/${session.id}/messages/${second.message_id}/edit`,
      { message: "Now add type hints to the parser" },
    );
    expect(edit.statusCode).toBe(202);
    const edited = edit.json() as { run_id: string; message_id: string };
    expect(edited.message_id).not.toBe(second.message_id);
    await ended(client, session.id, edited.run_id);
    // The edited branch's calls saw the first turn, never the message it replaced.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((m) => !m.includes("Now add unit tests"))).toBe(true);
    expect(sent.some((m) => m.includes("Write a Python function that parses CSV"))).toBe(true);

    let detail = await detailOf(client, session.id);
    const message = (id: string) => detail.messages.find((m) => m.id === id) as TChatMessage;
    expect(message(edited.message_id).parent_run_id).toBe(first.run_id);
    expect(message(second.message_id).parent_run_id).toBe(first.run_id);
    expect(onScreen(detail)).toEqual([
      "Write a Python function that parses CSV",
      "answer",
      "Now add type hints to the parser",
      "answer",
    ]);
    const path = conversationPath(detail.messages, detail.runs);
    expect(path[1]?.versions.map((m) => m.id)).toEqual([second.message_id, edited.message_id]);
    expect(path[1]?.run?.id).toBe(edited.run_id);

    // Back to the first version: the screen, and the next message's context, follow it.
    const shown = await client.post(
      `/api/sessions/${session.id}/messages/${second.message_id}/show`,
    );
    expect(shown.statusCode).toBe(200);
    sent.length = 0;
    const third = await send(client, session.id, "Explain the parser in two sentences");
    expect(sent.some((m) => m.includes("Now add unit tests for the parser"))).toBe(true);
    expect(sent.every((m) => !m.includes("type hints"))).toBe(true);
    detail = await detailOf(client, session.id);
    expect(message(third.message_id).parent_run_id).toBe(second.run_id);
    expect(onScreen(detail)).toEqual([
      "Write a Python function that parses CSV",
      "answer",
      "Now add unit tests for the parser",
      "answer",
      "Explain the parser in two sentences",
      "answer",
    ]);

    // Reload: the stored detail and a replay from the first event keep every branch.
    const again = await detailOf(client, session.id);
    expect(again.messages).toEqual(detail.messages);
    expect(again.runs.map((r) => [r.id, r.message_id, r.status, r.shown_at])).toEqual(
      detail.runs.map((r) => [r.id, r.message_id, r.status, r.shown_at]),
    );
    const replay = await replayByRun(client, session.id);
    for (const run of [first, second, edited, third]) {
      const events = replay.get(run.run_id) ?? [];
      expect(events[0]?.type).toBe("run.started");
      expect(events.at(-1)?.type).toBe("run.completed");
      const done = events.at(-1);
      if (done?.type === "run.completed") {
        const stored = detail.runs.find((r) => r.id === run.run_id) as TRun;
        expect(done.message.id).toBe(stored.result_message_id);
      }
    }
    // The other branch is still there, and paging back to it is one call.
    expect(
      (await client.post(`/api/sessions/${session.id}/messages/${edited.message_id}/show`))
        .statusCode,
    ).toBe(200);
    expect(onScreen(await detailOf(client, session.id))).toEqual([
      "Write a Python function that parses CSV",
      "answer",
      "Now add type hints to the parser",
      "answer",
    ]);
  });

  it("refuses what it cannot edit, changing nothing", async () => {
    const { client } = await user();
    const session = await createSession(client, TEAM);
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const detail = await detailOf(client, session.id);
    const answer = detail.messages.find((m) => m.role === "assistant") as TChatMessage;
    const url = (id: string) => `/api/sessions/${session.id}/messages/${id}/edit`;
    const notUser = await client.post(url(answer.id), { message: "x" });
    expect(notUser.statusCode).toBe(400);
    expect(notUser.json().error.code).toBe("not_a_user_message");
    const empty = await client.post(url(first.message_id), { message: "  " });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe("validation_failed");
    const unknown = await client.post(url("00000000-0000-4000-8000-000000000000"), {
      message: "x",
    });
    expect(unknown.statusCode).toBe(404);
    const other = await user();
    const foreign = await other.client.post(url(first.message_id), { message: "x" });
    expect(foreign.statusCode).toBe(404);
    const showForeign = await other.client.post(
      `/api/sessions/${session.id}/runs/${first.run_id}/show`,
    );
    expect(showForeign.statusCode).toBe(404);
    const pageForeign = await other.client.post(
      `/api/sessions/${session.id}/messages/${first.message_id}/show`,
    );
    expect(pageForeign.statusCode).toBe(404);
    const forkForeign = await other.client.post(
      `/api/sessions/${session.id}/runs/${first.run_id}/steps/s1/fork`,
      { model: "coquick" },
    );
    expect(forkForeign.statusCode).toBe(404);
    expect((await detailOf(client, session.id)).messages).toEqual(detail.messages);
  });
});

describe("regenerating an answer", () => {
  it("is a version of the same turn: the next message follows the version on screen", async () => {
    const { client } = await user();
    const session = await createSession(client, TEAM);
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const regen = await client.post(`/api/ai/chat/${first.run_id}/regenerate`);
    expect(regen.statusCode).toBe(202);
    const second = regen.json() as { run_id: string; message_id: string };
    await ended(client, session.id, second.run_id);
    let detail = await detailOf(client, session.id);
    let path = conversationPath(detail.messages, detail.runs);
    expect(path[0]?.runs.map((r) => r.id)).toEqual([first.run_id, second.run_id]);
    expect(path[0]?.run?.id).toBe(second.run_id);
    const firstAnswer = detail.messages.find(
      (m) => m.id === detail.runs.find((r) => r.id === first.run_id)?.result_message_id,
    ) as TChatMessage;
    const secondAnswer = detail.messages.find(
      (m) => m.id === detail.runs.find((r) => r.id === second.run_id)?.result_message_id,
    ) as TChatMessage;

    expect(
      (await client.post(`/api/sessions/${session.id}/runs/${first.run_id}/show`)).statusCode,
    ).toBe(200);
    sent.length = 0;
    const next = await send(client, session.id, "Explain the parser in two sentences");
    const context = sent.join("\n");
    expect(context).toContain(JSON.stringify(firstAnswer.content).slice(1, 60));
    if (secondAnswer.content !== firstAnswer.content) {
      expect(context).not.toContain(JSON.stringify(secondAnswer.content).slice(1, 60));
    }
    detail = await detailOf(client, session.id);
    path = conversationPath(detail.messages, detail.runs);
    expect(path.map((turn) => turn.run?.id)).toEqual([first.run_id, next.run_id]);
  });
});

describe("forking from a step", () => {
  it("keeps the earlier steps uncharged, re-runs the step and its dependents, bills only those", async () => {
    const { client, user: me } = await user();
    const session = await createSession(client, TEAM);
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const original = (await detailOf(client, session.id)).runs.find(
      (r) => r.id === first.run_id,
    ) as TRun;
    const coder = original.plan?.steps.find((s) => s.role === "coder" && s.phase === "agent");
    if (!coder) throw new Error("the plan has no Coder step");
    const before = await balanceOf(t.app, me.id);

    const response = await client.post(
      `/api/sessions/${session.id}/runs/${first.run_id}/steps/${coder.id}/fork`,
      { model: "coquick", instructions: "Use only the standard library." },
    );
    expect(response.statusCode).toBe(202);
    const forked = response.json() as { run_id: string; message_id: string };
    expect(forked.message_id).toBe(first.message_id);
    await ended(client, session.id, forked.run_id);

    const detail = await detailOf(client, session.id);
    const fork = detail.runs.find((r) => r.id === forked.run_id) as TRun;
    expect(fork.fork).toMatchObject({
      from_run_id: first.run_id,
      step_id: coder.id,
      model: "coquick",
      instructions: "Use only the standard library.",
      rest: false,
    });
    expect(fork.fork?.rerun_steps).toContain(coder.id);
    // The fork is a version of the answer, shown; the original is as it ended.
    const path = conversationPath(detail.messages, detail.runs);
    expect(path[0]?.runs.map((r) => r.id)).toEqual([first.run_id, forked.run_id]);
    expect(path[0]?.run?.id).toBe(forked.run_id);
    const originalAfter = detail.runs.find((r) => r.id === first.run_id) as TRun;
    expect(originalAfter.total_credits).toBe(original.total_credits);
    expect(originalAfter.steps.length).toBe(original.steps.length);

    // Copied: the plan and every agent step the Coder does not lead to, at no cost.
    const copied = fork.steps.filter((s) => s.copied);
    const kept = original.steps.filter(
      (s) =>
        s.kind === "plan" ||
        (s.kind === "agent" && s.step_id !== null && !fork.fork?.rerun_steps.includes(s.step_id)),
    );
    // Parallel lanes are stored in the order they ended, which a loaded machine may change.
    const byStep = (steps: typeof copied) =>
      steps
        .map((s) => [s.kind, s.step_id, s.output])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(byStep(copied)).toEqual(byStep(kept));
    expect(copied.every((s) => s.credits === 0)).toBe(true);
    // Re-run: the Coder on the fork's model, then the review and the answer.
    const coderCall = fork.steps.find((s) => s.kind === "agent" && s.step_id === coder.id);
    expect(coderCall).toMatchObject({ model: "coquick", status: "completed" });
    expect(coderCall?.copied).toBeUndefined();
    expect(fork.steps.some((s) => s.kind === "synthesis" && !s.copied)).toBe(true);

    // Billed: exactly the calls it made, once.
    const ran = fork.steps.filter((s) => !s.copied);
    const ranTotal = Math.round(ran.reduce((sum, s) => sum + s.credits, 0) * 100) / 100;
    expect(fork.total_credits).toBeCloseTo(ranTotal, 2);
    expect(fork.total_credits).toBeGreaterThan(0);
    expect(fork.total_credits).toBeLessThan(original.total_credits + 0.01);
    const after = await balanceOf(t.app, me.id);
    expect(before.balance - after.balance).toBeCloseTo(fork.total_credits, 2);
    expect(after.held).toBe(0);
    // Its first execution is not a resumption (on PostgreSQL the queue's worker claims it):
    // a crash later is its first resumption, and it keeps every one it may have.
    const { rows } = await t.db.query<{ resume_count: number }>(
      "SELECT resume_count FROM runs WHERE id = $1",
      [forked.run_id],
    );
    expect(rows).toEqual([{ resume_count: 0 }]);

    // Reload: replayed from its first event, the fork shows the same steps and answer.
    const replay = (await replayByRun(client, session.id)).get(forked.run_id) ?? [];
    expect(replay[0]?.type).toBe("run.started");
    expect(replay.at(-1)?.type).toBe("run.completed");
    const doneIds = replay.flatMap((e) => (e.type === "agent.done" ? [e.call_id] : []));
    for (const step of fork.steps.filter((s) => s.kind === "agent")) {
      expect(doneIds).toContain(step.id);
    }
  });

  it("refuses a step that is not an agent step, and a model that is not known", async () => {
    const { client } = await user();
    const session = await createSession(client, TEAM);
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const run = (await detailOf(client, session.id)).runs[0] as TRun;
    const coder = run.plan?.steps.find((s) => s.role === "coder") ?? { id: "s1" };
    const url = (step: string) =>
      `/api/sessions/${session.id}/runs/${first.run_id}/steps/${step}/fork`;
    const missing = await client.post(url("s99"), { model: "coquick" });
    expect(missing.statusCode).toBe(404);
    const unknown = await client.post(url(coder.id), { model: "no-such-model" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe("unknown_model");
    expect((await detailOf(client, session.id)).runs.length).toBe(1);
  });

  it("gives the forked step new role instructions and tools, and the later steps too with rest", async () => {
    const { client } = await user();
    const readers = (builtins: string[]) => ({ builtins, mcp_servers: [] });
    const session = await createSession(client, {
      ...TEAM,
      agent_preferences: {
        ...TEAM.agent_preferences,
        coder: { enabled: true, model: "cologic", instructions: "ORIGINAL-CODER-NOTE" },
      },
      tools: {
        policy: "never_ask",
        roles: {
          strategist: readers(["count_words", "list_notes"]),
          coder: readers(["count_words", "list_notes"]),
          critic: readers([]),
        },
      },
    });
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const run = (await detailOf(client, session.id)).runs[0] as TRun;
    const coder = run.plan?.steps.find((s) => s.role === "coder" && s.phase === "agent");
    const strategist = run.plan?.steps.find((s) => s.role === "strategist" && s.phase === "agent");
    if (!coder || !strategist) throw new Error("the plan has no Coder or Strategist step");
    expect(coder.depends_on).toContain(strategist.id);
    const coderCalls = () => offered.filter((c) => c.prompt.includes(coder.task));
    const before = offered.filter((c) => c.prompt.includes("ORIGINAL-CODER-NOTE"));
    expect(before.length).toBeGreaterThanOrEqual(1);
    // The planner names each step's tools among its role's (decision 067).
    const coderOwn = coder.tools ?? ["count_words", "list_notes"];
    expect(before[0]?.tools.sort()).toEqual([...coderOwn].sort());
    expect(coderOwn).not.toEqual(["list_notes"]);

    // The Coder's step alone: its call has the fork's note in place of the role's, one tool.
    offered.length = 0;
    const url = (step: string) =>
      `/api/sessions/${session.id}/runs/${first.run_id}/steps/${step}/fork`;
    const one = await client.post(url(coder.id), {
      model: "cologic",
      instructions: "FORK-CODER-NOTE: standard library only.",
      tools: ["list_notes"],
    });
    expect(one.statusCode).toBe(202);
    const oneRun = (one.json() as { run_id: string }).run_id;
    await ended(client, session.id, oneRun);
    const forkCalls = coderCalls();
    expect(forkCalls.length).toBeGreaterThanOrEqual(1);
    for (const call of forkCalls) {
      expect(call.prompt).toContain("FORK-CODER-NOTE: standard library only.");
      expect(call.prompt).not.toContain("ORIGINAL-CODER-NOTE");
    }
    expect(forkCalls[0]?.tools).toEqual(["list_notes"]);
    let detail = await detailOf(client, session.id);
    const forkOne = detail.runs.find((r) => r.id === oneRun) as TRun;
    expect(forkOne.fork).toMatchObject({
      instructions: "FORK-CODER-NOTE: standard library only.",
      tools: ["list_notes"],
      rest: false,
    });
    expect(forkOne.plan?.steps.find((s) => s.id === coder.id)?.tools).toEqual(["list_notes"]);

    // From the Strategist's step without rest: the Coder re-runs with its own tools.
    offered.length = 0;
    const two = await client.post(url(strategist.id), { model: "coreason", tools: [] });
    expect(two.statusCode).toBe(202);
    const twoRun = (two.json() as { run_id: string }).run_id;
    await ended(client, session.id, twoRun);
    expect(coderCalls()[0]?.tools.sort()).toEqual([...coderOwn].sort());
    expect(offered.find((c) => c.prompt.includes(strategist.task))?.tools).toEqual([]);

    // With rest: the Coder, re-run after it, gets the Strategist's new tools too.
    offered.length = 0;
    const three = await client.post(url(strategist.id), {
      model: "coreason",
      tools: ["count_words"],
      rest: true,
    });
    expect(three.statusCode).toBe(202);
    const threeRun = (three.json() as { run_id: string }).run_id;
    await ended(client, session.id, threeRun);
    expect(coderOwn).not.toEqual(["count_words"]);
    expect(coderCalls()[0]?.tools).toEqual(["count_words"]);
    detail = await detailOf(client, session.id);
    const forkThree = detail.runs.find((r) => r.id === threeRun) as TRun;
    expect(forkThree.plan?.steps.find((s) => s.id === coder.id)?.tools).toEqual(["count_words"]);
  });

  it("refuses a tool the step's role may not use, changing nothing", async () => {
    const { client, user: me } = await user();
    const session = await createSession(client, {
      ...TEAM,
      tools: {
        policy: "never_ask",
        roles: { coder: { builtins: ["count_words"], mcp_servers: [] } },
      },
    });
    const first = await send(client, session.id, "Write a Python function that parses CSV");
    const run = (await detailOf(client, session.id)).runs[0] as TRun;
    const coder = run.plan?.steps.find((s) => s.role === "coder") ?? { id: "s1" };
    const url = `/api/sessions/${session.id}/runs/${first.run_id}/steps/${coder.id}/fork`;
    const before = await balanceOf(t.app, me.id);
    const unknown = await client.post(url, {
      model: "coquick",
      instructions: "Use only the standard library.",
      tools: ["count_words", "no_such_tool"],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      error: {
        code: "unknown_tool",
        message: 'The Coder cannot use "no_such_tool" in this session. Its tools: count_words.',
        details: { tools: ["no_such_tool"] },
      },
    });
    // A real tool, but not one this session lets the Coder use.
    const notHis = await client.post(url, { model: "coquick", tools: ["list_notes"] });
    expect(notHis.statusCode).toBe(400);
    expect(notHis.json().error.code).toBe("unknown_tool");
    const malformed = await client.post(url, { model: "coquick", tools: "count_words" });
    expect(malformed.statusCode).toBe(400);
    expect((await detailOf(client, session.id)).runs.length).toBe(1);
    expect(await balanceOf(t.app, me.id)).toEqual(before);
  });
});

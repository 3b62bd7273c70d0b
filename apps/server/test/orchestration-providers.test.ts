import {
  estimateTokens,
  hundredthsOf,
  priceCall,
  type TModel,
  type TRun,
  type TRunEvent,
} from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { createTestApp, createTestDb, type TestApp, testConfig } from "./support/app";
import { TestClient } from "./support/client";
import {
  FakeProviderServer,
  type RecordedRequest,
} from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import * as runs from "./support/runs";
import { balanceOf, setCredits, signUpWithCredits } from "./support/runs-credits";

/**
 * Runs against a local server that speaks OpenAI's (and Anthropic's) real wire format, with
 * scripted answers: plans, drafts, reviews, failures, slow streams.
 */
let fake: FakeProviderServer;
let t: TestApp;

const RELIABILITY = {
  SIGNUP_CREDITS: "0",
  MODEL_RETRY_BASE_DELAY_MS: "1",
  MODEL_RETRY_MAX_DELAY_MS: "10",
};

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp(RELIABILITY));
  await t.app.ready();
});
afterAll(() => t?.close());
beforeEach(() => fake.reset({ text: "A draft from the fake provider." }));

const ONE_CODER = {
  rationale: "One coder step is enough.",
  steps: [{ id: "s1", role: "coder", task: "Write the parser", dependsOn: [] }],
};

const bodyOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body ?? {});

async function user(credits = 500) {
  const signed = await signUpWithCredits(t.app, credits);
  return signed;
}

async function runTask(client: TestClient, message = "Write a CSV parser") {
  const session = await runs.createSession(client);
  const { events, ...started } = await runs.runToEnd(client, session.id, message);
  const detail = (await client.get(`/api/sessions/${session.id}`)).json();
  return { session, ...started, events, detail, run: detail.runs.at(-1) as TRun };
}

describe("planning", () => {
  it("asks for the plan's JSON schema as the SDK would, on Cohort's own reader (decision 090)", async () => {
    const { client } = await user();
    fake.next({ json: ONE_CODER });
    const { events } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    const plan = fake.requests[0];
    expect(plan?.api).toBe("openai-responses");
    expect(plan?.stream).toBe(true);
    expect(plan?.body.text).toMatchObject({
      format: {
        type: "json_schema",
        strict: true,
        name: "run_plan",
        schema: { type: "object", required: expect.arrayContaining(["rationale", "steps"]) },
      },
    });
    // The SDK's HTTP layer names itself in the user-agent; Cohort's reader does not.
    expect(plan?.headers["user-agent"]).toMatch(/^ai-sdk\/openai\//);
    expect(plan?.headers["user-agent"]).not.toMatch(/ai-sdk\/provider-utils/);
  });

  it("reads an agent's turn with tools on Cohort's own reader, its function call run and answered (decision 095)", async () => {
    const { client } = await user();
    // The owner's own session may run tools without asking; read_url's address is refused
    // (not a public address), which is the tool's result the model gets back.
    const session = await runs.createSession(client, { tools: { policy: "never_ask" } });
    fake.next(
      { json: ONE_CODER },
      { toolCall: { name: "read_url", arguments: '{"url":"http://127.0.0.1/private"}' } },
      { text: "The page could not be read, so here is the parser from memory." },
    );
    const { events } = await runs.runToEnd(client, session.id, "Write a CSV parser");
    expect(events.at(-1)?.type).toBe("run.completed");
    const [, withTools, followUp] = fake.requests;
    // The coder's turn offers its tools and goes out on Cohort's reader, not the SDK's fetch.
    expect(withTools?.body.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "function", name: "read_url" })]),
    );
    expect(withTools?.headers["user-agent"]).not.toMatch(/ai-sdk\/provider-utils/);
    // The call ran and its result went back with the call it answers.
    const input = JSON.stringify(followUp?.body.input ?? []);
    expect(input).toContain('"type":"function_call"');
    expect(input).toContain('"call_id":"call_fake"');
    expect(input).toContain('"type":"function_call_output"');
    expect(events.filter((e) => e.type === "tool.call")).toMatchObject([{ tool: "read_url" }]);
    expect(events.filter((e) => e.type === "tool.result")).toHaveLength(1);
  });

  it("repairs a plan that is not valid JSON by feeding the problem back once", async () => {
    const { client, user: me } = await user();
    fake.next({ text: "Sure! Here is my plan: first code, then review." }, { json: ONE_CODER });
    const { events, run } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(runs.eventsOf(events, "run.plan")[0]).toMatchObject({
      repaired: true,
      plan: { rationale: "One coder step is enough.", steps: [{ id: "s1", role: "coder" }] },
    });
    const plans = run.steps.filter((s) => s.kind === "plan");
    expect(plans.map((s) => [s.status, s.error?.code ?? null])).toEqual([
      ["failed", "model_output_invalid"],
      ["completed", null],
    ]);
    expect(plans[0]?.credits).toBe(0);
    const repair = bodyOf(fake.requests[1]);
    expect(repair).toContain("could not be used as the plan: it was not valid JSON");
    expect(repair).toContain("run_plan schema");
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });

  it("repairs a plan that breaks a rule, naming the rule", async () => {
    const { client } = await user();
    fake.next(
      {
        json: {
          rationale: "Backwards.",
          steps: [
            { id: "s1", role: "coder", task: "Code", dependsOn: ["s2"] },
            { id: "s2", role: "strategist", task: "Plan", dependsOn: [] },
          ],
        },
      },
      { json: ONE_CODER },
    );
    const { events } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(bodyOf(fake.requests[1])).toContain(
      'steps.0.dependsOn: \\"s2\\" is not an earlier step',
    );
  });

  it("in manual mode, repairs a plan that uses a role the user did not choose", async () => {
    const { client } = await user();
    const session = await runs.createSession(client, {
      manual_agent_selection: true,
      agent_preferences: { coder: { enabled: true } },
    });
    fake.next(
      {
        json: {
          rationale: "Plan then code.",
          steps: [
            { id: "s1", role: "strategist", task: "Plan", dependsOn: [] },
            { id: "s2", role: "coder", task: "Code", dependsOn: ["s1"] },
          ],
        },
      },
      { json: ONE_CODER },
    );
    const { events } = await runs.runToEnd(client, session.id, "Write a CSV parser");
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(bodyOf(fake.requests[0])).toContain("Use only these roles: Coder.");
    expect(bodyOf(fake.requests[1])).toContain(
      "step s1 uses the Strategist, who is not on the team",
    );
    expect(runs.eventsOf(events, "run.plan")[0]?.plan.steps.map((s) => s.role)).toEqual(["coder"]);
  });

  it("fails the run with a clear error when the repair does not help, keeping the message", async () => {
    const { client, user: me } = await user();
    fake.next({ text: "no" }, { text: "still no" });
    const { events, detail } = await runTask(client);
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      code: "plan_failed",
      message: expect.stringContaining("The coordinator (CoReason) could not plan this task."),
    });
    expect(
      detail.messages.map((m: { role: string; content: string }) => [m.role, m.content]),
    ).toEqual([["user", "Write a CSV parser"]]);
    expect(fake.requests).toHaveLength(2);
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });
});

describe("agents, review and synthesis", () => {
  it("runs independent steps in parallel and the Critic after both", async () => {
    const { client } = await user();
    fake.next({
      json: {
        rationale: "Code and design side by side, then review.",
        steps: [
          { id: "s1", role: "coder", task: "Code it", dependsOn: [] },
          { id: "s2", role: "designer", task: "Design it", dependsOn: [] },
          { id: "s3", role: "critic", task: "Review both", dependsOn: ["s1", "s2"] },
        ],
      },
    });
    // Every answer takes a while to start, so a second lane could only start after the first
    // finished if the engine ran them one after the other.
    fake.defaultReply = {
      text: "A fine draft. Score: 8/10",
      firstByteDelayMs: 150,
      chunkDelayMs: 5,
    };
    const { events } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    const index = (match: (e: TRunEvent) => boolean) => events.findIndex(match);
    const started = (id: string) =>
      index((e) => e.type === "agent.started" && e.step_id === id && e.kind === "agent");
    const done = (id: string) =>
      index((e) => e.type === "agent.done" && e.step_id === id && e.kind === "agent");
    expect(Math.max(started("s1"), started("s2"))).toBeLessThan(Math.min(done("s1"), done("s2")));
    const criticStarted = index((e) => e.type === "agent.started" && e.kind === "critic");
    expect(criticStarted).toBeGreaterThan(Math.max(done("s1"), done("s2")));
    expect(runs.eventsOf(events, "critic.verdict")[0]).toMatchObject({
      score: 8,
      verdict: "approve",
      revise_step_ids: [],
    });
    expect(
      runs.eventsOf(events, "agent.started").filter((e) => e.kind === "revision"),
    ).toHaveLength(0);
  });

  it("below the bar, revises the weakest draft once and keeps the score", async () => {
    const { client } = await user();
    fake.next(
      {
        json: {
          rationale: "Code, then review.",
          steps: [
            { id: "s1", role: "coder", task: "Write the parser", dependsOn: [] },
            { id: "s2", role: "critic", task: "Review the parser", dependsOn: ["s1"] },
          ],
        },
      },
      { text: "FIRST DRAFT of the parser." },
      { text: "Draft s1: 4/10\n1. No tests: add them.\nScore: 4/10\nVerdict: revise" },
      { text: "REVISED DRAFT of the parser, with tests." },
      { text: "The final answer." },
    );
    const { events, run: stored } = await runTask(client);
    expect(events.at(-1)).toMatchObject({ type: "run.completed", critic_score: 4 });
    expect(runs.eventsOf(events, "critic.verdict")[0]).toMatchObject({
      score: 4,
      bar: 7,
      verdict: "revise",
      draft_scores: { s1: 4 },
      revise_step_ids: ["s1"],
    });
    expect(stored.critic_score).toBe(4);
    expect(stored.steps.map((s) => [s.kind, s.step_id])).toEqual([
      ["plan", null],
      ["agent", "s1"],
      ["critic", "s2"],
      ["revision", "s1"],
      ["synthesis", null],
    ]);
    const revision = bodyOf(fake.requests[3]);
    expect(revision).toContain("FIRST DRAFT of the parser.");
    expect(revision).toContain("No tests: add them.");
    const synthesis = bodyOf(fake.requests[4]);
    expect(synthesis).toContain("REVISED DRAFT of the parser");
    expect(synthesis).not.toContain("FIRST DRAFT");
    expect(fake.requests).toHaveLength(5);
  });

  it("fails the run clearly when the synthesis fails, keeping the drafts", async () => {
    const { client } = await user();
    fake.next({ json: ONE_CODER }, { text: "The draft." }, { status: 400, errorMessage: "bad" });
    const { events, run: stored } = await runTask(client);
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      code: "synthesis_failed",
      message: expect.stringContaining("The coordinator could not write the final answer"),
    });
    expect(stored.steps.find((s) => s.kind === "agent")).toMatchObject({
      status: "completed",
      output: "The draft.",
    });
  });

  it("stores streamed text exactly, in far fewer events than provider chunks", async () => {
    const { client } = await user();
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ");
    fake.next({ json: ONE_CODER }, { text: words, chunkDelayMs: 1 });
    const { events, run: stored } = await runTask(client);
    const deltas = runs.eventsOf(events, "agent.delta");
    expect(deltas.map((d) => d.text).join("")).toBe(words);
    expect(stored.steps.find((s) => s.kind === "agent")?.output).toBe(words);
    // 400 chunks gathered into windows: typically ~10 events; the bound leaves room for a
    // loaded machine, where the provider's 1 ms chunks spread over more windows (121 seen at
    // load 19), without depending on the clock.
    expect(deltas.length).toBeLessThan(200);
  });

  it("gives later runs the conversation so far", async () => {
    const { client } = await user();
    const session = await runs.createSession(client);
    fake.next({ json: ONE_CODER }, { text: "draft" }, { text: "FINAL-ANSWER-ONE" });
    await runs.runToEnd(client, session.id, "FIRST-QUESTION");
    fake.next({ json: ONE_CODER });
    await runs.runToEnd(client, session.id, "SECOND-QUESTION");
    const plan = bodyOf(fake.requests[3]);
    expect(plan).toContain("FIRST-QUESTION");
    expect(plan).toContain("FINAL-ANSWER-ONE");
    expect(plan).toContain("SECOND-QUESTION");
  });
});

/** Saves `apiKey` as the user's own OpenAI key. */
async function saveOpenAiKey(client: TestClient, apiKey: string) {
  const saved = await client.put("/api/users/api-keys", { provider: "openai", apiKey });
  expect(saved.statusCode).toBe(200);
}

describe("the user's own key", () => {
  it("runs every call on it, for no credits, still recording the usage", async () => {
    const { client, user: me } = await user(0);
    await saveOpenAiKey(client, "sk-user-own-key");
    fake.next({ json: ONE_CODER });
    // The key serves OpenAI's models the user picks; Cohort's Co* models stay on Cohort's
    // keys (decision 029).
    const onKey = { enabled: true, model: "gpt-4.1" };
    const session = await runs.createSession(client, {
      coordinator_model: "gpt-4.1",
      agent_preferences: { strategist: onKey, coder: onKey, designer: onKey, critic: onKey },
    });
    const { events } = await runs.runToEnd(client, session.id, "Write a CSV parser");
    const stored = (await client.get(`/api/sessions/${session.id}`)).json().runs.at(-1) as TRun;
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(fake.requests.length).toBe(3);
    for (const request of fake.requests) {
      expect(request.headers.authorization).toBe("Bearer sk-user-own-key");
    }
    expect(stored.total_credits).toBe(0);
    expect(stored.steps.every((s) => s.credits === 0 && s.status === "completed")).toBe(true);
    expect(runs.eventsOf(events, "credits.changed")).toEqual([]);
    expect(await balanceOf(t.app, me.id)).toEqual({ balance: 0, held: 0, available: 0 });
    const usage = (await client.get("/api/users/usage")).json();
    expect(usage.totals).toMatchObject({ total_requests: 3, total_credits_used: 0 });
  });
});

describe("a user's key the provider refuses", () => {
  it("ends the run with that refusal when every agent's step was on the refused key", async () => {
    const { client, user: me } = await user(100);
    await saveOpenAiKey(client, "sk-user-revoked");
    // The plan runs on Cohort's key (CoReason); the Coder's step on the user's (GPT-4.1).
    fake.next({ json: ONE_CODER }, { status: 401, errorMessage: "Incorrect API key provided" });
    const session = await runs.createSession(client, {
      coordinator_model: "coreason",
      agent_preferences: { coder: { enabled: true, model: "gpt-4.1" } },
    });
    const { events } = await runs.runToEnd(client, session.id, "Write a CSV parser");

    expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer sk-hosted",
      "Bearer sk-user-revoked",
    ]);
    const message =
      "Your OpenAI key in Settings was refused (OpenAI answered 401), so GPT-4.1 could not answer. Replace or remove the key in Settings.";
    expect(events.at(-1)).toMatchObject({
      type: "run.failed",
      code: "provider_key_rejected",
      message,
    });
    const stored = (await client.get(`/api/sessions/${session.id}`)).json().runs.at(-1) as TRun;
    expect(stored).toMatchObject({
      status: "failed",
      error: { code: "provider_key_rejected", message },
    });
    // The lane still says what the run did next.
    expect(runs.eventsOf(events, "agent.done")[0]?.error?.message).toBe(
      `${message} The run continues without the Coder.`,
    );
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });
});

describe("stopping", () => {
  it("cancels mid-stream: aborts the call, keeps the partial output as stopped, charges what it showed", async () => {
    const { client, user: me } = await user(100);
    const session = await runs.createSession(client);
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
    fake.next({ json: ONE_CODER }, { text: words, chunkDelayMs: 30 });
    const { run_id } = await runs.sendMessage(client, session.id, "Write a CSV parser");
    await runs.waitForEvent(client, session.id, (e) => e.type === "agent.delta");
    const agentRequest = fake.requests[1];

    const cancel = await client.post(`/api/ai/chat/${run_id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toEqual({ run_id, status: "cancelled" });
    expect(await agentRequest?.closed).toEqual({ early: true });

    const events = (await runs.sessionEvents(client, session.id)).filter(
      (e) => e.run_id === run_id,
    );
    expect(events.at(-1)).toMatchObject({ type: "run.cancelled", reason: "user" });
    const stored = (await client.get(`/api/sessions/${session.id}`)).json().runs[0] as TRun;
    expect(stored.status).toBe("cancelled");
    const agent = stored.steps.find((s) => s.kind === "agent");
    expect(agent).toMatchObject({
      status: "stopped",
      stopped: true,
      error: { code: "stopped", message: "Stopped before it finished." },
    });
    expect(agent?.output.length).toBeGreaterThan(0);
    // A stop does not make what was shown free (decision 053): the call is charged for its
    // input and the text it showed, at the model's price, and for nothing more.
    const model = (await client.get(`/api/models/${agent?.model}`)).json().model as TModel;
    const outputTokens = estimateTokens(agent?.output ?? "");
    expect(agent?.output_tokens).toBe(outputTokens);
    const price = priceCall(model, { inputTokens: agent?.input_tokens ?? 0, outputTokens });
    expect(price).toBeGreaterThan(0);
    expect(hundredthsOf(agent?.credits ?? 0)).toBe(price);
    expect(price).toBeLessThan(
      priceCall(model, {
        inputTokens: agent?.input_tokens ?? 0,
        outputTokens: estimateTokens(words),
      }),
    );
    expect(runs.eventsOf(events, "agent.done")).toEqual([
      expect.objectContaining({
        step_id: "s1",
        status: "stopped",
        credits: agent?.credits,
        usage_estimated: true,
      }),
    ]);
    expect(words.startsWith(agent?.output ?? "x")).toBe(true);
    expect(agent?.output.length).toBeLessThan(words.length);
    expect(
      runs
        .eventsOf(events, "agent.delta")
        .map((d) => d.text)
        .join(""),
    ).toBe(agent?.output);

    const settled = stored.steps.reduce((sum, s) => sum + s.credits, 0);
    const balance = await balanceOf(t.app, me.id);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeCloseTo(100 - settled, 2);
    expect(stored.total_credits).toBeCloseTo(settled, 2);
  });

  it("aborts a call started beside its hold when the hold is refused, showing nothing of it", async () => {
    const { client, user: me } = await user(100);
    const session = await runs.createSession(client);
    // The plan costs its whole hold, and nothing else is left: the Coder's hold is refused.
    // The plan answers only once the balance is down to what it holds.
    let planMayAnswer = () => {};
    const creditsSet = new Promise<void>((resolve) => {
      planMayAnswer = resolve;
    });
    fake.next(
      { json: ONE_CODER, until: creditsSet, usage: { inputTokens: 1e7, outputTokens: 1e7 } },
      { text: "This draft must never be shown.", firstByteDelayMs: 200 },
    );
    const { run_id } = await runs.sendMessage(client, session.id, "Write a CSV parser");
    await setCredits(t.app, me.id, (await balanceOf(t.app, me.id)).held);
    planMayAnswer();

    const events = await runs.waitForRunEnd(client, session.id, run_id);
    expect(events.at(-1)).toMatchObject({ type: "run.failed", code: "insufficient_credits" });
    expect(events.filter((e) => e.type.startsWith("agent."))).toEqual([]);
    // Whether or not the Coder's request had gone out when the hold was refused, none ran on.
    for (const request of fake.requests.slice(1)) {
      expect(await request.closed).toEqual({ early: true });
    }
    const stored = (await client.get(`/api/sessions/${session.id}`)).json().runs[0] as TRun;
    expect(stored.steps.map((s) => s.kind)).toEqual(["plan"]);
    expect(await balanceOf(t.app, me.id)).toMatchObject({ balance: 0, held: 0 });
  });

  it("allows one run at a time per session (409 run_in_progress) until it is stopped", async () => {
    const { client } = await user();
    const session = await runs.createSession(client);
    fake.next({ hang: true });
    const asked = fake.requests.length;
    const { run_id } = await runs.sendMessage(client, session.id, "First");
    // The first run's planning call takes the hanging reply (with the job queue the run
    // starts a moment after the answer, and a stop before that would leave the reply unused).
    await fake.waitForRequests(asked + 1);
    const second = await client.post("/api/ai/chat", { session_id: session.id, message: "Second" });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe("run_in_progress");
    expect((await client.post(`/api/ai/chat/${run_id}/cancel`)).json().status).toBe("cancelled");
    fake.next({ json: ONE_CODER });
    const third = await runs.runToEnd(client, session.id, "Third");
    expect(third.events.at(-1)?.type).toBe("run.completed");
    const messages = (await client.get(`/api/sessions/${session.id}`)).json().messages;
    expect(messages.map((m: { content: string }) => m.content)).toEqual([
      "First",
      "Third",
      expect.any(String),
    ]);
  });

  it("starts one of two runs sent at once, holding and storing nothing for the other", async () => {
    const { client, user: me } = await user();
    const session = await runs.createSession(client);
    fake.next({ hang: true });
    const responses = await Promise.all(
      ["One", "Two"].map((message) =>
        client.post("/api/ai/chat", { session_id: session.id, message }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    const refused = responses.find((r) => r.statusCode === 409);
    expect(refused?.json().error.code).toBe("run_in_progress");
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages).toHaveLength(1);
    expect(detail.runs).toHaveLength(1);
    // Only the started run's planning hold is open.
    const { rows } = await t.app.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM credit_holds WHERE user_id = $1 AND status = 'open'",
      [me.id],
    );
    expect(rows[0]?.n).toBe(1);
    const started = responses.find((r) => r.statusCode === 202)?.json().run_id as string;
    expect((await client.post(`/api/ai/chat/${started}/cancel`)).json().status).toBe("cancelled");
    await runs.waitForRunEnd(client, session.id, started);
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });

  it("stops the running task when the session is paused or deleted", async () => {
    const { client, user: me } = await user();
    const session = await runs.createSession(client);
    fake.next({ hang: true });
    const first = await runs.sendMessage(client, session.id, "First");
    const paused = await client.put(`/api/sessions/${session.id}/status`, { status: "paused" });
    expect(paused.json().session.status).toBe("paused");
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.runs[0]).toMatchObject({ id: first.run_id, status: "cancelled" });

    await client.put(`/api/sessions/${session.id}/status`, { status: "active" });
    fake.next({ hang: true });
    await runs.sendMessage(client, session.id, "Second");
    expect((await client.delete(`/api/sessions/${session.id}`)).statusCode).toBe(200);
    expect((await client.get(`/api/sessions/${session.id}`)).statusCode).toBe(404);
    expect((await balanceOf(t.app, me.id)).held).toBe(0);
  });

  it("hands a running run on when the app shuts down, and the next start resumes it", async () => {
    const testDb = await createTestDb();
    const prefix = `test:shutdown:${Date.now()}:`;
    const env = testConfig({
      ...RELIABILITY,
      OPENAI_API_KEY: "sk-hosted",
      OPENAI_BASE_URL: fake.baseUrls.openai,
    });
    const app = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
    let next: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const { client, user: me, token } = await signUpWithCredits(app, 50);
      const session = await runs.createSession(client);
      fake.next({ json: ONE_CODER }, { hang: true });
      const { run_id } = await runs.sendMessage(client, session.id, "Long task");
      await fake.waitForRequests(2);
      await app.close();
      // Handed on, not ended: the planning call is kept, the cut-off call stopped and released.
      const { rows } = await testDb.db.query<{ status: string }>(
        "SELECT status FROM runs WHERE id = $1",
        [run_id],
      );
      expect(rows[0]?.status).toBe("running");
      const held = await testDb.db.query<{ held: number }>(
        "SELECT held FROM credit_accounts WHERE user_id = $1",
        [me.id],
      );
      expect(Number(held.rows[0]?.held)).toBe(0);

      // The next start (the same task name: the same deployment) goes on with it.
      next = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
      const viaNext = new TestClient(next);
      viaNext.bearer = token;
      const events = await runs.waitForRunEnd(viaNext, session.id, run_id, 40_000);
      expect(events.find((e) => e.type === "run.resumed")).toMatchObject({
        from_status: "running",
        reused_steps: 1,
        attempt: 1,
      });
      expect(events.at(-1)).toMatchObject({ type: "run.completed", run_id });
      expect(events.filter((e) => e.type === "run.plan")).toHaveLength(1);
      await next.orchestration.control.idle();
      expect((await balanceOf(next, me.id)).held).toBe(0);
    } finally {
      await app.close();
      await next?.close();
      await testDb.drop();
    }
  });
});

describe("a provider failing mid-run", () => {
  let openai: FakeProviderServer;
  let anthropic: FakeProviderServer;
  let two: TestApp;

  beforeAll(async () => {
    openai = await FakeProviderServer.start();
    anthropic = await FakeProviderServer.start();
    two = await createTestApp({
      ...RELIABILITY,
      OPENAI_API_KEY: "sk-hosted",
      OPENAI_BASE_URL: openai.baseUrls.openai,
      ANTHROPIC_API_KEY: "sk-ant-hosted",
      ANTHROPIC_BASE_URL: anthropic.baseUrls.anthropic,
    });
    await two.app.ready();
  });
  afterAll(async () => {
    await two?.close();
    await openai?.close();
    await anthropic?.close();
  });

  it("falls back to the next provider first, else goes on without the agent and says so", async () => {
    const { client, user: me } = await signUpWithCredits(two.app, 500);
    const session = await runs.createSession(client, {
      manual_agent_selection: true,
      agent_preferences: {
        coder: { enabled: true, model: "gpt-4.1" },
        // CoDepth runs on Anthropic first, then OpenAI: it falls back.
        strategist: { enabled: true, model: "codepth" },
        // Claude Sonnet runs on Anthropic only: nothing to fall back to.
        designer: { enabled: true, model: "claude-sonnet-4" },
      },
    });
    openai.next({
      json: {
        rationale: "All three side by side.",
        steps: [
          { id: "s1", role: "strategist", task: "Plan", dependsOn: [] },
          { id: "s2", role: "coder", task: "Code", dependsOn: [] },
          { id: "s3", role: "designer", task: "Design", dependsOn: [] },
        ],
      },
    });
    openai.defaultReply = { text: "OPENAI-DRAFT" };
    anthropic.defaultReply = { status: 500, errorMessage: "overloaded" };
    const { events } = await runs.runToEnd(client, session.id, "Build a landing page");
    expect(events.at(-1)?.type).toBe("run.completed");
    const done = Object.fromEntries(runs.eventsOf(events, "agent.done").map((e) => [e.step_id, e]));
    expect(done.s1).toMatchObject({ status: "completed", provider: "openai" });
    expect(done.s2).toMatchObject({ status: "completed", provider: "openai" });
    expect(done.s3).toMatchObject({
      status: "failed",
      error: {
        code: "provider_unavailable",
        message: expect.stringContaining("The run continues without the Designer."),
      },
    });
    expect(done.s3?.error?.message).toContain("Anthropic had a server error (500)");
    const synthesis = bodyOf(openai.requests.at(-1));
    expect(synthesis).toContain("Draft s1 (Strategist)");
    expect(synthesis).not.toContain("Draft s3");
    expect((await balanceOf(two.app, me.id)).held).toBe(0);
  });
});

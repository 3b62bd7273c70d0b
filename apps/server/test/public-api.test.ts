import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  COHORT_TEAM_MODEL,
  estimateTokens,
  hundredthsOf,
  priceCall,
  type TChatCompletion,
  type TCohortRunSummary,
  type TModel,
  type TOpenAIError,
  type TRunStep,
  type TSession,
  type TSessionDetailResponse,
} from "@cohort/contracts";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAccessToken } from "./support/access-tokens";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { sessionEvents } from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/**
 * /api/v1 through the official `openai` SDK against a listening app on loopback: a hosted
 * OpenAI key pointed at the fake provider (`real`), the simulator at full speed (`sim`), and a
 * slow simulator with a tight per-token rate limit (`slow`) for stops and 429s.
 */
let fake: FakeProviderServer;
let real: TestApp;
let sim: TestApp;
let slow: TestApp;

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/v1`;
}
const urls = new Map<TestApp, string>();

beforeAll(async () => {
  fake = await FakeProviderServer.start();
  [real, sim, slow] = await Promise.all([
    createTestApp({
      SIGNUP_CREDITS: "0",
      MODEL_RETRY_BASE_DELAY_MS: "1",
      MODEL_RETRY_MAX_DELAY_MS: "10",
      OPENAI_API_KEY: "sk-hosted",
      OPENAI_BASE_URL: fake.baseUrls.openai,
      OPENAI_API: "chat",
    }),
    createTestApp({ SIGNUP_CREDITS: "0", SIMULATOR_TOKENS_PER_SECOND: "0" }),
    createTestApp({
      SIGNUP_CREDITS: "0",
      SIMULATOR_TOKENS_PER_SECOND: "40",
      ACCESS_TOKEN_RATE_PER_MINUTE: "2",
    }),
  ]);
  for (const t of [real, sim, slow]) urls.set(t, await listen(t));
});
afterAll(async () => {
  // The SDK's fetch may leave a connection open that never carried a request; server.close()
  // would wait minutes for it. Every request of the file has ended by now.
  for (const t of [real, sim, slow]) t?.app.server.closeAllConnections();
  await Promise.all([real?.close(), sim?.close(), slow?.close()]);
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
});

interface Caller {
  openai: OpenAI;
  client: TestClient;
  userId: string;
  token: string;
}

async function caller(
  t: TestApp,
  options: { credits?: number; scopes?: ("chat" | "sessions:read")[] } = {},
): Promise<Caller> {
  const signed = await signUpWithCredits(t.app, options.credits ?? 500);
  const { token } = await createTestAccessToken(signed.client, {
    ...(options.scopes ? { scopes: options.scopes } : {}),
  });
  const openai = new OpenAI({ apiKey: token, baseURL: urls.get(t) as string, maxRetries: 0 });
  return { openai, client: signed.client, userId: signed.user.id, token };
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(20);
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function sessionDetail(client: TestClient, id: string): Promise<TSessionDetailResponse> {
  const response = await client.get(`/api/sessions/${id}`);
  expect(response.statusCode).toBe(200);
  return response.json() as TSessionDetailResponse;
}

describe("GET /api/v1/models", () => {
  it("lists cohort-team and the enabled catalogue models in OpenAI's shape", async () => {
    const { openai } = await caller(sim);
    const ids: string[] = [];
    for await (const model of openai.models.list()) {
      expect(model.object).toBe("model");
      expect(typeof model.created).toBe("number");
      ids.push(model.id);
    }
    expect(ids[0]).toBe(COHORT_TEAM_MODEL);
    expect(ids).toEqual(expect.arrayContaining(["coreason", "cochat", "gpt-4o"]));
  });

  it("refuses a bad token as an AuthenticationError in OpenAI's error shape", async () => {
    const openai = new OpenAI({
      apiKey: "cohort_pat_not-a-real-token",
      baseURL: urls.get(sim) as string,
      maxRetries: 0,
    });
    const error = await openai.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).error).toMatchObject({
      type: "authentication_error",
      code: "invalid_access_token",
      param: null,
    });
  });

  it("stops accepting a revoked token at once", async () => {
    const { openai, client } = await caller(sim);
    await openai.models.list();
    const listed = (await client.get("/api/users/access-tokens")).json() as {
      tokens: { id: string }[];
    };
    expect(
      (await client.delete(`/api/users/access-tokens/${listed.tokens[0]?.id}`)).statusCode,
    ).toBe(200);
    await expect(openai.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe("chat completions with a catalogue model", () => {
  it("answers without streaming, with usage, billed through a hold that is settled", async () => {
    const { openai, userId } = await caller(real);
    fake.next({ text: "Paris is the capital.", usage: { inputTokens: 21, outputTokens: 6 } });
    const completion = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Answer in one sentence." },
        { role: "user", content: [{ type: "text", text: "What is the capital of France?" }] },
      ],
      temperature: 0.3,
      max_tokens: 50,
    });
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("gpt-4o");
    expect(completion.choices[0]?.message).toMatchObject({
      role: "assistant",
      content: "Paris is the capital.",
    });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.usage).toEqual({ prompt_tokens: 21, completion_tokens: 6, total_tokens: 27 });
    const sent = fake.requests[0]?.body ?? {};
    expect(sent.temperature).toBe(0.3);
    expect(JSON.stringify(sent.messages)).toContain("Answer in one sentence.");
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(50);
    const balance = await balanceOf(real.app, userId);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeLessThan(500);
  });

  it("streams chunks, ends at a stop sequence, and sends the usage chunk when asked", async () => {
    const { openai, userId } = await caller(real);
    fake.next({ text: "one two three STOP four five", usage: { inputTokens: 9, outputTokens: 6 } });
    const stream = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Count." }],
      stream: true,
      stop: ["STOP"],
      stream_options: { include_usage: true },
    });
    let text = "";
    const finishes: (string | null)[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.choices[0]) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("one two three ");
    expect(finishes.at(-1)).toBe("stop");
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 });
    expect((await balanceOf(real.app, userId)).held).toBe(0);
  });

  it("streams the simulator's answer, the same text as without streaming", async () => {
    const { openai } = await caller(sim);
    const ask = { model: "cochat", messages: [{ role: "user" as const, content: "Say hello." }] };
    const whole = await openai.chat.completions.create(ask);
    const text = whole.choices[0]?.message.content ?? "";
    expect(text.length).toBeGreaterThan(0);
    let streamed = "";
    for await (const chunk of await openai.chat.completions.create({ ...ask, stream: true })) {
      streamed += chunk.choices[0]?.delta.content ?? "";
    }
    expect(streamed).toBe(text);
  });

  it("answers 402 with the credits error when the balance cannot cover the call", async () => {
    const { openai, userId } = await caller(real, { credits: 0 });
    const error = await openai.chat.completions
      .create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(402);
    expect(apiError.error).toMatchObject({
      type: "insufficient_quota",
      code: "insufficient_credits",
    });
    expect((apiError.error as { message: string }).message).toMatch(
      /^You have 0\.00 credits available and the smallest step needs \d+\.\d\d\. Add credits to continue\.$/,
    );
    expect((await balanceOf(real.app, userId)).held).toBe(0);
  });

  it("answers a provider failure as a 5xx server_error and releases the hold", async () => {
    const { openai, userId } = await caller(real);
    fake.defaultReply = { status: 500, errorMessage: "upstream exploded" };
    const error = await openai.chat.completions
      .create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    const apiError = error as InstanceType<typeof OpenAI.InternalServerError>;
    expect(apiError.status).toBeGreaterThanOrEqual(500);
    expect(apiError.error).toMatchObject({ type: "server_error" });
    expect(JSON.stringify(apiError.error)).not.toContain("upstream exploded");
    expect(await balanceOf(real.app, userId)).toMatchObject({ balance: 500, held: 0 });
  });

  it("refuses unsupported fields, bad values and unknown models with OpenAI's param", async () => {
    const { openai } = await caller(sim);
    const tools = await openai.chat.completions
      .create({
        model: "cochat",
        messages: [{ role: "user", content: "Hi" }],
        tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      })
      .catch((e: unknown) => e);
    expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
    expect((tools as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("tools");
    const role = await openai.chat.completions
      .create({
        model: "cochat",
        messages: [
          { role: "user", content: "Hi" },
          { role: "user", content: 42 as never },
        ],
      })
      .catch((e: unknown) => e);
    expect((role as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages[1].content");
    const missing = await openai.chat.completions
      .create({ model: "no-such-model", messages: [{ role: "user", content: "Hi" }] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).param).toBe("model");
  });

  it("answers an unknown /api/v1 route and invalid JSON in OpenAI's error shape", async () => {
    const { token } = await caller(sim);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const missing = await fetch(`${urls.get(sim)}/embeddings`, { method: "POST", headers });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as TOpenAIError).error).toMatchObject({
      type: "not_found_error",
      param: null,
    });
    const broken = await fetch(`${urls.get(sim)}/chat/completions`, {
      method: "POST",
      headers,
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as TOpenAIError).error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_json",
    });
  });

  it("needs the chat scope", async () => {
    const { openai } = await caller(sim, { scopes: ["sessions:read"] });
    const error = await openai.chat.completions
      .create({ model: "cochat", messages: [{ role: "user", content: "Hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((error as InstanceType<typeof OpenAI.PermissionDeniedError>).code).toBe(
      "insufficient_scope",
    );
  });

  it("stops the provider call and charges what was produced when the client aborts mid-stream", async () => {
    const { openai, userId } = await caller(real);
    fake.next({ text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 100 });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: "gpt-4o", messages: [{ role: "user", content: "Long answer" }], stream: true },
      { signal: controller.signal },
    );
    let text = "";
    const reading = (async () => {
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        if (text.length > 0) controller.abort();
      }
    })();
    // The SDK ends the iteration quietly on its own abort.
    await reading;
    expect(await fake.requests[0]?.closed).toEqual({ early: true });
    const balance = await waitFor("the hold's settlement", async () => {
      const b = await balanceOf(real.app, userId);
      return b.held === 0 ? b : undefined;
    });
    // Cutting the stream does not make the answer free (decision 053): what came is paid.
    expect(balance.balance).toBeLessThan(500);
    expect(balance.balance).toBeGreaterThan(499);
    const { rows } = await real.db.query<{ delta: number }>(
      "SELECT delta FROM credit_ledger WHERE user_id = $1 AND reason = 'usage'",
      [userId],
    );
    expect(rows.map((r) => Number(r.delta))).toEqual([Math.round((balance.balance - 500) * 100)]);
  });
});

describe("chat completions with a catalogue model that grow their hold", () => {
  it("answers a long answer in full from a balance below its worst case, growing its hold", async () => {
    const model = (await new TestClient(real.app).get("/api/models/gpt-4o")).json().model as TModel;
    // 4,000 output tokens cost about 4 credits: 3 cannot hold the worst case, and pay the answer.
    const { openai, userId } = await caller(real, { credits: 3 });
    const text = Array.from({ length: 1200 }, (_, i) => `w${i % 10}`).join(" ");
    const usage = { inputTokens: 12, outputTokens: estimateTokens(text) };
    fake.next({ text, usage });
    const stream = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Write at length" }],
      max_tokens: 4000,
      stream: true,
    });
    let received = "";
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      received += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(received).toBe(text);
    expect(finish).toBe("stop");
    const price = priceCall(model, usage);
    const { rows } = await real.db.query<{ amount: string; charged: string; status: string }>(
      "SELECT amount, charged, status FROM credit_holds WHERE user_id = $1 AND reference LIKE 'api:%'",
      [userId],
    );
    expect(rows).toHaveLength(1);
    const hold = rows[0] as { amount: string; charged: string; status: string };
    expect(hold.status).toBe("settled");
    expect(Number(hold.charged)).toBe(price);
    // It held its input and a first slice of 512 tokens, then grew a slice at a time as the
    // answer did: more than the first slice, less than the whole balance (decision 053).
    expect(Number(hold.amount)).toBeGreaterThan(
      priceCall(model, { inputTokens: 12, outputTokens: 512 }),
    );
    expect(Number(hold.amount)).toBeGreaterThanOrEqual(price);
    expect(Number(hold.amount)).toBeLessThan(hundredthsOf(3));
    expect(await balanceOf(real.app, userId)).toMatchObject({
      balance: (hundredthsOf(3) - price) / 100,
      held: 0,
    });
  });

  it("stops where the balance cannot pay more: the text so far, charged exactly, never below zero", async () => {
    const model = (await new TestClient(real.app).get("/api/models/gpt-4o")).json().model as TModel;
    const { openai, userId } = await caller(real, { credits: 1 });
    const text = Array.from({ length: 1500 }, (_, i) => `w${i % 10}`).join(" ");
    fake.next({ text, usage: { inputTokens: 12, outputTokens: estimateTokens(text) } });
    const completion = await openai.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Write at length" }],
      max_tokens: 4000,
    });
    const content = completion.choices[0]?.message.content ?? "";
    expect(completion.choices[0]?.finish_reason).toBe("length");
    expect(content.length).toBeGreaterThan(0);
    expect(text.startsWith(content)).toBe(true);
    expect(content.length).toBeLessThan(text.length);
    const balance = await balanceOf(real.app, userId);
    expect(balance.held).toBe(0);
    expect(balance.balance).toBeGreaterThanOrEqual(0);
    const { rows } = await real.db.query<{ charged: string }>(
      "SELECT charged FROM credit_holds WHERE user_id = $1 AND reference LIKE 'api:%'",
      [userId],
    );
    const charged = Number(rows[0]?.charged);
    expect(charged).toBeGreaterThan(0);
    expect(hundredthsOf(1) - hundredthsOf(balance.balance)).toBe(charged);
    // Charged for its input and the text it gave, estimated as the provider reported none.
    const used = await real.db.query<{ input_tokens: number; output_tokens: number }>(
      "SELECT input_tokens, output_tokens FROM usage_events WHERE user_id = $1",
      [userId],
    );
    const [call] = used.rows;
    expect(call?.output_tokens).toBe(estimateTokens(content));
    const inputTokens = call?.input_tokens ?? 0;
    expect(charged).toBe(
      Math.min(
        priceCall(model, { inputTokens, outputTokens: estimateTokens(content) }),
        hundredthsOf(1),
      ),
    );
  });
});

describe("chat completions with cohort-team", () => {
  const task = "Design a landing page for a bakery";

  function expectSummary(cohort: TCohortRunSummary | undefined) {
    expect(cohort).toBeDefined();
    const summary = cohort as TCohortRunSummary;
    expect(summary.status).toBe("completed");
    expect(summary.session_url).toMatch(new RegExp(`/chat/${summary.session_id}$`));
    expect(summary.plan.length).toBeGreaterThan(0);
    expect(summary.plan[0]).toEqual(
      expect.objectContaining({ role: expect.any(String), task: expect.any(String) }),
    );
    expect(summary.agents.map((a) => a.kind)).toEqual(
      expect.arrayContaining(["plan", "agent", "synthesis"]),
    );
    expect(summary.agents.every((a) => a.model && a.output_tokens >= 0)).toBe(true);
    expect(summary.total_credits).toBeGreaterThan(0);
    return summary;
  }

  it("runs the team without streaming: the final answer, the cohort field, a session in the app", async () => {
    const { openai, client, userId } = await caller(sim);
    const completion = (await openai.chat.completions.create({
      model: COHORT_TEAM_MODEL,
      messages: [{ role: "user", content: task }],
    })) as unknown as TChatCompletion;
    const summary = expectSummary(completion.cohort);
    const detail = await sessionDetail(client, summary.session_id);
    expect(detail.session.title).toBe(task);
    const run = detail.runs.find((r) => r.id === summary.run_id);
    expect(run?.status).toBe("completed");
    expect(summary.critic_score).toBe(run?.critic_score ?? null);
    expect(summary.total_credits).toBe(run?.total_credits);
    const answer = detail.messages.find((m) => m.role === "assistant" && m.run_id === run?.id);
    expect(completion.choices[0]?.message.content).toBe(answer?.content);
    expect(completion.usage.completion_tokens).toBe(run?.output_tokens);
    const sessions = (await client.get("/api/sessions")).json() as { sessions: TSession[] };
    expect(sessions.sessions.map((s) => s.id)).toContain(summary.session_id);
    expect((await balanceOf(sim.app, userId)).held).toBe(0);
  });

  it("streams the final answer as chunks, with the cohort field on the last one", async () => {
    const { openai, client } = await caller(sim);
    const stream = await openai.chat.completions.create({
      model: COHORT_TEAM_MODEL,
      messages: [
        { role: "system", content: "Keep it short." },
        { role: "user", content: task },
      ],
      stream: true,
    });
    let text = "";
    let contentChunks = 0;
    let last: (OpenAI.ChatCompletionChunk & { cohort?: TCohortRunSummary }) | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content ?? "";
      if (delta) contentChunks++;
      text += delta;
      last = chunk;
    }
    const summary = expectSummary(last?.cohort);
    expect(last?.choices[0]?.finish_reason).toBe("stop");
    expect(contentChunks).toBeGreaterThan(0);
    const detail = await sessionDetail(client, summary.session_id);
    const answer = detail.messages.find((m) => m.role === "assistant");
    expect(text).toBe(answer?.content);
    expect(detail.messages[0]?.content).toBe(`Keep it short.\n\n${task}`);
  });

  it("answers 402 before the run when the planning call cannot be paid, leaving no session", async () => {
    const { openai, client } = await caller(sim, { credits: 0 });
    const error = await openai.chat.completions
      .create({ model: COHORT_TEAM_MODEL, messages: [{ role: "user", content: task }] })
      .catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("insufficient_credits");
    const sessions = (await client.get("/api/sessions")).json() as { sessions: TSession[] };
    expect(sessions.sessions).toEqual([]);
  });

  it("cancels the run and releases its holds when the client aborts mid-stream", async () => {
    const { openai, client, userId } = await caller(slow);
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: COHORT_TEAM_MODEL, messages: [{ role: "user", content: task }], stream: true },
      { signal: controller.signal },
    );
    const reading = (async () => {
      for await (const _chunk of stream) controller.abort();
    })();
    await reading;
    const session = await waitFor("the session", async () => {
      const list = (await client.get("/api/sessions")).json() as { sessions: TSession[] };
      return list.sessions[0];
    });
    const run = await waitFor("the run's end", async () => {
      const detail = await sessionDetail(client, session.id);
      const found = detail.runs[0];
      return found?.finished_at ? found : undefined;
    });
    expect(run.status).toBe("cancelled");
    expect((await balanceOf(slow.app, userId)).held).toBe(0);
  });
});

describe("a cohort-team stream closed by its client", () => {
  it("charges the run's cut call for the text it showed", async () => {
    const { openai, client, userId } = await caller(slow);
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      {
        model: COHORT_TEAM_MODEL,
        messages: [{ role: "user", content: "Design a bakery's landing page" }],
        stream: true,
      },
      { signal: controller.signal },
    );
    const reading = (async () => {
      for await (const _chunk of stream) {
        // Read until the client leaves.
      }
    })();
    const session = await waitFor("the session", async () => {
      const list = (await client.get("/api/sessions")).json() as { sessions: TSession[] };
      return list.sessions[0];
    });
    // The client leaves once an agent has shown some text.
    await waitFor("an agent's text", async () => {
      const events = await sessionEvents(client, session.id);
      return events.some((e) => e.type === "agent.delta") ? true : undefined;
    });
    controller.abort();
    await reading.catch(() => undefined);
    const run = await waitFor("the run's end", async () => {
      const detail = await sessionDetail(client, session.id);
      const found = detail.runs[0];
      return found?.finished_at ? found : undefined;
    });
    expect(run.status).toBe("cancelled");
    const cut = run.steps.filter((s) => s.kind === "agent" && s.status === "stopped" && s.output);
    expect(cut.length).toBeGreaterThan(0);
    for (const step of cut as TRunStep[]) {
      const model = (await client.get(`/api/models/${step.model}`)).json().model as TModel;
      const outputTokens = estimateTokens(step.output);
      expect(step).toMatchObject({ error: { code: "stopped" }, output_tokens: outputTokens });
      const price = priceCall(model, { inputTokens: step.input_tokens, outputTokens });
      expect(price).toBeGreaterThan(0);
      expect(hundredthsOf(step.credits)).toBe(price);
    }
    const charged = run.steps.reduce((sum, s) => sum + hundredthsOf(s.credits), 0);
    const balance = await balanceOf(slow.app, userId);
    expect(balance.held).toBe(0);
    expect(hundredthsOf(500) - hundredthsOf(balance.balance)).toBe(charged);
  });
});

describe("rate limit per token", () => {
  it("answers 429 with Retry-After once the token's budget for the minute is spent", async () => {
    const { openai } = await caller(slow);
    await openai.models.list();
    await openai.models.list();
    const error = await openai.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const limited = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(Number(limited.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
  });
});

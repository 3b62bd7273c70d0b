import { setTimeout as sleep } from "node:timers/promises";
import {
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TRun,
  type TRunEvent,
  type TRunEventOf,
  takeNewEvents,
} from "@cohort/contracts";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../src/modules/tools/tool-definition";
import { signUp } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import { createSession, runToEnd, sessionEvents } from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";
import { connected, joinSession, socketOpener } from "./support/sockets";
import { expectDeniedUnanswered } from "./support/tools";

/**
 * The tool layer in runs (decision 058), on the built-in simulator, which calls the
 * tools whose names its task mentions through the same AI SDK tool calls a real model makes:
 * tool.call / tool.result events, stored and replayed exactly as sent live; a 5 MB answer
 * capped; a slow tool timed out and a throwing one failed while the run goes on; a priced tool
 * held and settled; a write call denied without an approvals module.
 */

const FIVE_MB = 5 * 1024 * 1024;
const executed: string[] = [];

const anyObject = { kind: "json" as const, schema: { type: "object" as const, properties: {} } };

function tool(
  name: string,
  title: string,
  execute: ToolDefinition["execute"],
  extra: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name,
    title,
    description: `${title} (a test tool).`,
    input: anyObject,
    risk: "read",
    source: { kind: "builtin" },
    price: 0,
    untrustedOutput: false,
    timeoutMs: 10_000,
    execute: async (input, ctx) => {
      executed.push(name);
      return execute(input, ctx);
    },
    ...extra,
  };
}

const TEST_TOOLS: ToolDefinition[] = [
  tool("lookup_inventory", "Lookup inventory", async () => ({ text: "Inventory: 42 widgets." })),
  tool("fetch_huge_report", "Fetch huge report", async () => ({ text: "x".repeat(FIVE_MB) }), {
    untrustedOutput: true,
  }),
  tool(
    "slow_forecast",
    "Slow forecast",
    (_input, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
      }),
    { timeoutMs: 300 },
  ),
  tool("broken_ledger", "Broken ledger", async () => {
    throw new Error("ledger offline");
  }),
  tool("priced_quote", "Priced quote", async () => ({ text: "Quote: 120 EUR." }), { price: 50 }),
  tool("delete_records", "Delete records", async () => ({ text: "Deleted." }), { risk: "write" }),
];

let t: TestApp;
let url: string;
const opener = socketOpener(() => url);

beforeAll(async () => {
  // A write call waits for a person (decision 059); nobody answers here, so it expires.
  t = await createTestApp({
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    APPROVAL_TIMEOUT_SECONDS: "1",
  });
  t.app.tools.addProvider({ id: "test-tools", tools: async () => TEST_TOOLS });
  url = await listenLocally(t.app);
}, 60_000);
afterAll(async () => {
  opener.closeAll();
  await t?.close();
});

/** A session whose Coder (the only role) may use the test tools. */
async function coderSession(client: Parameters<typeof createSession>[0]) {
  return createSession(client, {
    manual_agent_selection: true,
    agent_preferences: { coder: { enabled: true, model: null, instructions: "" } },
    tools: {
      policy: "ask_risky",
      roles: { coder: { builtins: TEST_TOOLS.map((x) => x.name), mcp_servers: [] } },
    },
  });
}

const resultsOf = (events: TRunEvent[], name: string) =>
  events.filter(
    (e): e is TRunEventOf<"tool.result"> => e.type === "tool.result" && e.tool === name,
  );

const cents = (n: number) => Math.round(n * 100) / 100;

/** What the run's model calls cost: the plan, the lanes and the answer. */
function modelCredits(events: TRunEvent[]): number {
  let sum = 0;
  for (const e of events) {
    if (e.type === "run.plan" || e.type === "agent.done") sum += e.credits;
    if (e.type === "run.completed") sum += e.synthesis.credits;
  }
  return cents(sum);
}

const runTotal = (events: TRunEvent[]) => {
  const end = events.at(-1);
  return end?.type === "run.completed" ? end.total_credits : Number.NaN;
};

describe("tools in runs", () => {
  it("stores the session's tool settings, with defaults when none are given", async () => {
    const { client } = await signUp(t.app);
    const plain = await createSession(client);
    expect(plain.tools).toEqual({ policy: "ask_risky", roles: {} });
    const patched = await client.request("PATCH", `/api/sessions/${plain.id}`, {
      tools: {
        policy: "ask_all",
        roles: { strategist: { builtins: ["web_search"], mcp_servers: [] } },
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().session.tools).toEqual({
      policy: "ask_all",
      roles: { strategist: { builtins: ["web_search"], mcp_servers: [] } },
    });
    const bad = await client.request("PATCH", `/api/sessions/${plain.id}`, {
      tools: { policy: "sometimes", roles: {} },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("lists the tools a session's roles can be given, and answers 401 without a sign-in", async () => {
    const { client } = await signUp(t.app);
    const response = await client.get("/api/tools");
    expect(response.statusCode).toBe(200);
    const { tools, unavailable } = response.json();
    // The app's own providers first (documents, the web, code, images), then the test's.
    expect(tools.map((x: { name: string }) => x.name)).toEqual([
      "search_documents",
      "read_url",
      "run_code",
      "generate_image",
      ...TEST_TOOLS.map((x) => x.name),
    ]);
    expect(tools.find((x: { name: string }) => x.name === "delete_records")).toEqual({
      name: "delete_records",
      title: "Delete records",
      description: "Delete records (a test tool).",
      risk: "write",
      source: { kind: "builtin" },
      price: 0,
      untrusted_output: false,
    });
    // Without a search provider, web_search is absent and the list says why.
    expect(unavailable).toEqual([
      {
        name: "web_search",
        reason:
          "web_search: no search provider configured — set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY",
      },
    ]);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/tools" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("runs the lane's tools as events that replay exactly as they were sent live; a huge answer is capped, a slow tool times out, a throwing one fails, and the run goes on", async () => {
    const { client, token } = await signUpWithCredits(t.app, 100);
    const session = await coderSession(client);

    const socket: Socket = opener.open({ token });
    const live: TRunEvent[] = [];
    socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => live.push(event));
    await connected(socket);
    const ack: TJoinSessionAck = await joinSession(socket, session.id);
    expect(ack.ok).toBe(true);

    executed.length = 0;
    const { run_id, events } = await runToEnd(
      client,
      session.id,
      "Lookup inventory, fetch the huge report, run the slow forecast and check the broken ledger, then write the restock script.",
      60_000,
    );
    expect(events.at(-1)?.type).toBe("run.completed");

    const calls = events.filter((e): e is TRunEventOf<"tool.call"> => e.type === "tool.call");
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(new Set(calls.map((c) => c.tool))).toEqual(
      new Set(["lookup_inventory", "fetch_huge_report", "slow_forecast", "broken_ledger"]),
    );
    for (const call of calls) {
      expect(call.status).toBe("running");
      expect(call.kind).toBe("agent");
      // Each call's result follows it, in the same lane.
      const result = events.find(
        (e) => e.type === "tool.result" && e.tool_call_id === call.tool_call_id,
      ) as TRunEventOf<"tool.result">;
      expect(result.call_id).toBe(call.call_id);
      expect(result.seq).toBeGreaterThan(call.seq);
      const started = events.find((e) => e.type === "agent.started" && e.call_id === call.call_id);
      expect(started?.seq).toBeLessThan(call.seq);
    }

    for (const result of resultsOf(events, "lookup_inventory")) {
      expect(result.status).toBe("completed");
      expect(result.text_preview).toBe("Inventory: 42 widgets.");
      expect(result.truncated).toBe(false);
      expect(result.error).toBeNull();
    }
    for (const result of resultsOf(events, "fetch_huge_report")) {
      expect(result.status).toBe("completed");
      expect(result.output_chars).toBe(FIVE_MB);
      expect(result.truncated).toBe(true);
      expect(result.text_preview).toHaveLength(2_000);
    }
    for (const result of resultsOf(events, "slow_forecast")) {
      expect(result.status).toBe("failed");
      expect(result.error).toEqual({
        code: "tool_timeout",
        message: "Slow forecast did not answer within 0.3 s.",
      });
    }
    for (const result of resultsOf(events, "broken_ledger")) {
      expect(result.status).toBe("failed");
      expect(result.error).toEqual({
        code: "tool_failed",
        message: "Broken ledger failed: ledger offline",
      });
    }
    // The lane's text tells what the tools returned, and goes on after them.
    const done = events.filter((e) => e.type === "agent.done");
    expect(done.every((e) => e.type === "agent.done" && e.status === "completed")).toBe(true);

    // The same events through the API and through the live socket, in the same order.
    await sleep(100);
    const stored = (await sessionEvents(client, session.id)).filter((e) => e.run_id === run_id);
    const { events: received } = takeNewEvents(0, live);
    expect(received.filter((e) => e.run_id === run_id)).toEqual(stored);
    // Free tools add nothing: the run cost its model calls only.
    expect(runTotal(events)).toBe(modelCredits(events));
  }, 90_000);

  it("holds and settles a priced tool, and denies a write call nobody approves in time", async () => {
    const { client, user } = await signUpWithCredits(t.app, 100);
    const session = await coderSession(client);
    executed.length = 0;
    const { events } = await runToEnd(
      client,
      session.id,
      "Get a priced quote and delete records of old orders.",
      60_000,
    );
    expect(events.at(-1)?.type).toBe("run.completed");

    const priced = resultsOf(events, "priced_quote");
    expect(priced.length).toBeGreaterThanOrEqual(1);
    for (const result of priced) {
      expect(result.status).toBe("completed");
      expect(result.credits).toBe(0.5);
    }
    expectDeniedUnanswered(resultsOf(events, "delete_records"));
    expect(executed).not.toContain("delete_records");
    // The lane's step credits are its whole step: its model turns and its priced tools
    // (decision 067), in the live event, the stored row and the run's total alike.
    const tools = cents(priced.length * 0.5);
    const lanes = events.filter((e): e is TRunEventOf<"agent.done"> => e.type === "agent.done");
    const lane = lanes.find((e) => e.call_id === priced[0]?.call_id);
    expect(lane?.tool_credits).toBe(tools);
    expect(lane?.credits).toBeGreaterThan(tools);
    for (const other of lanes.filter((e) => e !== lane)) expect(other.tool_credits).toBeUndefined();
    expect(runTotal(events)).toBe(modelCredits(events));
    const run = (await client.get(`/api/sessions/${session.id}`)).json().runs.at(-1) as TRun;
    expect(run.steps.find((s) => s.id === lane?.call_id)?.credits).toBe(lane?.credits);
    expect(cents(run.steps.reduce((n, s) => n + s.credits, 0))).toBe(run.total_credits);
    expect(run.total_credits).toBe(runTotal(events));
    // The balance moves by exactly the run's total, tools included.
    await sleep(100);
    expect((await balanceOf(t.app, user.id)).balance).toBe(cents(100 - runTotal(events)));
  }, 90_000);
});

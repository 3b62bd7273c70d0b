#!/usr/bin/env node
// `npm run bench:tools`: what the tool layer adds to a tool call (decisions 058, 067), seen from
// outside, as the web app sees it: a socket.io client (polling, as the web app) joined to the
// session receives `tool.call` and then `tool.result`; the tool's own time is measured inside
// its execute(); the difference is what the loop, the gate, the events and the socket add.
//  1. Round trip: one run at a time, one read tool call per run (target: < 5 ms p50 added).
//  2. Load: 20 concurrent runs, 2 lanes each, 4 tool calls per lane: the added time per call
//     (p50/p99), run durations (p50/p99) and how many runs completed.
// The app runs in this process (buildApp, embedded PGlite, the built-in simulator at full
// speed), listening on a random loopback port. The read tools are registered the way a
// built-in is (a provider on app.tools, source "builtin", risk "read"); each waits
// BENCH_TOOL_MS (default 5 ms) so its own time is known. Runs under tsx (TypeScript app).
import { cpus, loadavg } from "node:os";
import { CLIENT_EVENTS, SERVER_EVENTS } from "@cohort/contracts";
import { io } from "socket.io-client";
import { signUp } from "../apps/server/test/support/accounts.ts";
import { createTestApp } from "../apps/server/test/support/app.ts";
import { createSession, sendMessage } from "../apps/server/test/support/runs.ts";
import { setCredits } from "../apps/server/test/support/runs-credits.ts";

const ROUND_TRIPS = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 20);
const TOOL_MS = Number(process.env.BENCH_TOOL_MS ?? 5);
const TARGET_P50_MS = 5;
const RUN_TIMEOUT_MS = 300_000;

const TOOL_NAMES = ["lookup_fact", "check_stock", "read_notes", "count_items"];
/** tool_call_id → the tool's own time (ms), measured inside execute(). */
const ownTime = new Map();

function benchTool(name) {
  return {
    name,
    title: name.replace("_", " "),
    description: `A read tool for the benchmark (${name}).`,
    input: { kind: "json", schema: { type: "object", properties: { query: { type: "string" } } } },
    risk: "read",
    source: { kind: "builtin" },
    price: 0,
    untrustedOutput: false,
    timeoutMs: 10_000,
    async execute(_input, ctx) {
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, TOOL_MS));
      const text = `${name}: 42.`;
      ownTime.set(ctx.callId, performance.now() - started);
      return { text };
    },
  };
}

const quantile = (values, q) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (n) => `${n.toFixed(2)} ms`;

async function openSocket(url, token, sessionId, onEvent, transport) {
  const socket = io(url, { transports: [transport], reconnection: false, auth: { token } });
  socket.on(SERVER_EVENTS.runEvent, (event) => onEvent(event, performance.now()));
  await new Promise((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  const ack = await socket.timeout(10_000).emitWithAck(CLIENT_EVENTS.joinSession, { sessionId });
  if (!ack.ok) throw new Error(`could not join the session: ${JSON.stringify(ack)}`);
  return socket;
}

/** One run whose `roles` may use the bench tools, followed over a socket until it ends. */
async function followedRun(t, url, roles, task, transport = "polling") {
  const { client, user, token } = await signUp(t.app);
  await setCredits(t.app, user.id, 1000);
  const session = await createSession(client, {
    manual_agent_selection: true,
    agent_preferences: Object.fromEntries(roles.map((r) => [r, { enabled: true }])),
    tools: {
      policy: "ask_risky",
      roles: Object.fromEntries(roles.map((r) => [r, { builtins: TOOL_NAMES, mcp_servers: [] }])),
    },
  });
  const seen = new Map();
  const calls = [];
  let resolveEnd;
  const ended = new Promise((resolve) => {
    resolveEnd = resolve;
  });
  const socket = await openSocket(
    url,
    token,
    session.id,
    (event, at) => {
      if (event.type === "tool.call") seen.set(event.tool_call_id, at);
      if (event.type === "tool.result") {
        const sent = seen.get(event.tool_call_id);
        calls.push({
          id: event.tool_call_id,
          lane: event.call_id,
          sentAt: sent,
          at,
          outside: at - sent,
          inside: event.duration_ms,
          status: event.status,
        });
      }
      if (["run.completed", "run.failed", "run.cancelled"].includes(event.type)) {
        resolveEnd(event.type);
      }
    },
    transport,
  );
  const started = performance.now();
  await sendMessage(client, session.id, task);
  const end = await Promise.race([
    ended,
    new Promise((resolve) => setTimeout(() => resolve("timeout"), RUN_TIMEOUT_MS)),
  ]);
  const durationMs = performance.now() - started;
  socket.close();
  // The added time of each call: its round trip at the client minus the tool's own time.
  const added = calls.map((c) => c.outside - (ownTime.get(c.id) ?? Number.NaN));
  // What the call's own wrapper adds (schema, timer, cap; the event's duration_ms, whole ms).
  const wrapper = calls.map((c) => c.inside - (ownTime.get(c.id) ?? Number.NaN));
  // Per lane: its tool calls run one after another, so the span from its first tool.call to
  // its last tool.result at the client, less the tools' own time, divided by its calls, is
  // the added time per call without the polling transport's batching of events.
  const lanes = new Map();
  for (const c of calls) lanes.set(c.lane, [...(lanes.get(c.lane) ?? []), c]);
  const perLane = [...lanes.values()].map((lane) => {
    const first = Math.min(...lane.map((c) => c.sentAt));
    const last = Math.max(...lane.map((c) => c.at));
    const own = lane.reduce((n, c) => n + (ownTime.get(c.id) ?? Number.NaN), 0);
    return (last - first - own) / lane.length;
  });
  return { end, durationMs, calls, added, wrapper, perLane };
}

async function main() {
  const t = await createTestApp({
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    LOG_LEVEL: "silent",
  });
  t.app.tools.addProvider({ id: "bench", tools: async () => TOOL_NAMES.map(benchTool) });
  const url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const config = {
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
    database: "embedded PGlite (in process)",
    models: "built-in simulator, SIMULATOR_TOKENS_PER_SECOND=0",
    tool: `read tool, source builtin, own time ${TOOL_MS} ms (setTimeout)`,
    client: "socket.io-client, polling (as the web app)",
    roundTrips: ROUND_TRIPS,
    concurrent: CONCURRENT,
  };
  console.log("bench:tools", new Date().toISOString());
  console.log("config", JSON.stringify(config));
  console.log(
    `load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );

  // 1. One read tool call per run, one run at a time (a warm-up run first), over polling, as
  // the web app (the server offers no other transport).
  await followedRun(t, url, ["coder"], "Lookup fact about the bakery's opening hours.");
  for (const transport of ["polling"]) {
    const single = [];
    const wrappers = [];
    const ownOnly = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const run = await followedRun(
        t,
        url,
        ["coder"],
        `Lookup fact number ${i} about the bakery.`,
        transport,
      );
      if (run.end !== "run.completed") throw new Error(`round trip run ended ${run.end}`);
      single.push(...run.added);
      wrappers.push(...run.wrapper);
      for (const c of run.calls) ownOnly.push(ownTime.get(c.id) ?? Number.NaN);
    }
    const p50 = quantile(single, 0.5);
    console.log(
      `round trip over ${transport} (${single.length} calls): added p50 ${ms(p50)}, p90 ${ms(quantile(single, 0.9))}, p99 ${ms(quantile(single, 0.99))}; tool's own time p50 ${ms(quantile(ownOnly, 0.5))}; inside the call (duration_ms − own, whole ms) p50 ${ms(quantile(wrappers, 0.5))}; target p50 < ${TARGET_P50_MS} ms: ${p50 < TARGET_P50_MS ? "met" : "NOT met"}`,
    );
    console.log(
      `load average: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
  }

  // 2. CONCURRENT runs at once, 2 lanes each, 4 tool calls per lane.
  const task = "Lookup fact, check stock, read notes and count items for the bakery's launch.";
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: CONCURRENT }, () => followedRun(t, url, ["strategist", "coder"], task)),
  );
  const wall = performance.now() - started;
  const added = runs.flatMap((r) => r.perLane);
  const completed = runs.filter((r) => r.end === "run.completed").length;
  const perLane = runs.flatMap((r) => r.calls).length / (runs.length * 2);
  const durations = runs.map((r) => r.durationMs);
  console.log(
    `load (${CONCURRENT} concurrent runs × 2 lanes, ${perLane.toFixed(1)} tool calls per lane, ${runs.flatMap((r) => r.calls).length} calls): added per call (per lane: span − tools' own time, ÷ calls) p50 ${ms(quantile(added, 0.5))}, p99 ${ms(quantile(added, 0.99))}; run duration p50 ${ms(quantile(durations, 0.5))}, p99 ${ms(quantile(durations, 0.99))}; completed ${completed}/${CONCURRENT} in ${ms(wall)}; failed tool calls ${runs.flatMap((r) => r.calls).filter((c) => c.status !== "completed").length}`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  t.app.server.closeAllConnections();
  await t.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);

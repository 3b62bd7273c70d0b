#!/usr/bin/env node
// The anchor of `npm run bench:orchestration` (decision 072): the same 6-call team (plan →
// strategist → coder ∥ designer → critic → synthesis) run by the OpenAI Agents SDK
// (`@openai/agents`, installed in bench/anchor/ apart from the app), behind the same outside
// surface the benchmark drives Cohort through: POST /api/sessions, POST /api/ai/chat → run_id,
// and socket.io (polling) with `join-session` and `run-event` (agent.delta / final.delta as
// each token arrives, run.completed at the end). It stores nothing and checks no one: it is
// the cost of an agent framework plus the same delivery, the bar Cohort is measured against.
//   OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 PORT=0 node bench/anchor/server.mjs
// Prints its base URL on stdout.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";

// socket.io is the app's own copy (the root node_modules), so both sides deliver alike.
const rootRequire = createRequire(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "../../package.json"),
);
const { Server } = rootRequire("socket.io");

setTracingDisabled(true);
setDefaultOpenAIClient(
  new OpenAI({ apiKey: "sk-bench", baseURL: process.env.OPENAI_BASE_URL, maxRetries: 0 }),
);

const MODEL = "gpt-4.1";
const Plan = z.object({
  rationale: z.string(),
  steps: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      task: z.string(),
      dependsOn: z.array(z.string()),
    }),
  ),
});
const planner = new Agent({
  name: "coordinator",
  model: MODEL,
  instructions: "Plan the team's work: a strategist, a coder and a designer, then a critic.",
  outputType: Plan,
});
const agents = new Map();
const agentFor = (role) => {
  let agent = agents.get(role);
  if (!agent) {
    agent = new Agent({ name: role, model: MODEL, instructions: `You are the ${role}.` });
    agents.set(role, agent);
  }
  return agent;
};
const synthesizer = new Agent({
  name: "synthesis",
  model: MODEL,
  instructions: "Write the final answer from the team's work.",
});

/** One streamed agent call; every text delta goes to the session's room as it arrives. */
async function streamed(io, sessionId, runId, agent, input, type) {
  const result = await run(agent, input, { stream: true });
  for await (const event of result) {
    if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") {
      io.to(sessionId).emit("run-event", {
        type,
        session_id: sessionId,
        run_id: runId,
        agent: agent.name,
        text: event.data.delta,
      });
    }
  }
  await result.completed;
  return result.finalOutput;
}

async function team(io, sessionId, runId, message) {
  const started = performance.now();
  // Streamed like Cohort's plan call (the fake streams every answer); not sent to clients.
  const planned = await run(planner, message, { stream: true });
  for await (const _ of planned);
  await planned.completed;
  const plan = planned.finalOutput;
  const outputs = new Map();
  const pending = new Map(plan.steps.map((step) => [step.id, step]));
  const running = new Map();
  // Each step starts as soon as the steps it depends on are done (coder ∥ designer).
  while (pending.size > 0 || running.size > 0) {
    for (const step of [...pending.values()]) {
      if (!step.dependsOn.every((id) => outputs.has(id))) continue;
      pending.delete(step.id);
      const context = step.dependsOn.map((id) => outputs.get(id)).join("\n\n");
      const input = `${message}\n\nYour task: ${step.task}\n\n${context}`;
      running.set(
        step.id,
        streamed(io, sessionId, runId, agentFor(step.role), input, "agent.delta").then((text) => {
          outputs.set(step.id, text);
          running.delete(step.id);
        }),
      );
    }
    await Promise.race(running.values());
  }
  const all = plan.steps.map((step) => `${step.role}: ${outputs.get(step.id)}`).join("\n\n");
  await streamed(io, sessionId, runId, synthesizer, `${message}\n\n${all}`, "final.delta");
  io.to(sessionId).emit("run-event", {
    type: "run.completed",
    session_id: sessionId,
    run_id: runId,
    duration_ms: performance.now() - started,
  });
}

const json = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
};

let io;
const server = createServer(async (req, res) => {
  if (req.url === "/api/health") return json(res, 200, { status: "ok" });
  if (req.method !== "POST") return json(res, 404, { error: "not found" });
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw || "{}");
  if (req.url === "/api/sessions") return json(res, 201, { session: { id: randomUUID() } });
  if (req.url === "/api/ai/chat") {
    const runId = randomUUID();
    json(res, 202, { run_id: runId });
    team(io, body.session_id, runId, body.message).catch((error) => {
      io.to(body.session_id).emit("run-event", {
        type: "run.failed",
        session_id: body.session_id,
        run_id: runId,
        error: String(error),
      });
    });
    return;
  }
  json(res, 404, { error: "not found" });
});
// The same socket.io settings as Cohort's realtime hub (polling only).
io = new Server(server, {
  transports: ["polling"],
  allowUpgrades: false,
  serveClient: false,
  cors: { origin: false },
  maxHttpBufferSize: 1_000_000,
});
io.on("connection", (socket) => {
  socket.on("join-session", ({ sessionId }, ack) => {
    socket.join(sessionId);
    ack?.({ ok: true });
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}`);
});

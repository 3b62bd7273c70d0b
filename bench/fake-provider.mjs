#!/usr/bin/env node
// The benchmark's model provider, in its own process so its timers never compete with the
// server or the clients: OpenAI's Responses API (the SDK's default for OpenAI), streamed as
// server-sent events. Every answer is CHUNKS chunks, the first after TTFT_MS and the rest
// CHUNK_MS apart (from the request's arrival), and each chunk carries the wall-clock time it was written, `⟦t=…⟧`, in
// milliseconds with fractions, so a client can measure provider send → its own receipt.
// Structured-output requests (the plan) get PLAN_JSON cut into the same number of chunks
// (not stamped: its text is JSON the server parses; the log has the time each chunk was
// written instead, `sent`). Prints its base URL on stdout.
// GET /log answers (and forgets) when each call arrived and ended, in the same wall-clock
// milliseconds as the stamps, so a client can split a run's time into stages.
//   node bench/fake-provider.mjs '{"ttftMs":20,"chunkMs":10,"chunks":20,"tail":"…","planJson":"…"}'
import { createServer } from "node:http";

const options = JSON.parse(process.argv[2] ?? "{}");
const TTFT_MS = options.ttftMs ?? 20;
const CHUNK_MS = options.chunkMs ?? 10;
const CHUNKS = options.chunks ?? 20;
const TAIL = options.tail ?? "";
const PLAN_JSON = options.planJson ?? "{}";

const now = () => performance.timeOrigin + performance.now();
/** Each call's arrival and end (wall clock, ms), oldest first, until GET /log reads them. */
let log = [];
const LOG_CAP = 10_000;
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The plan's JSON in CHUNKS nearly equal pieces. */
function planPieces() {
  const size = Math.ceil(PLAN_JSON.length / CHUNKS);
  return Array.from({ length: CHUNKS }, (_, i) => PLAN_JSON.slice(i * size, (i + 1) * size));
}

/** Chunk i of a text answer, stamped as it is written; the last one ends with TAIL. */
const textPiece = (i) => ` ⟦t=${now().toFixed(2)}⟧${i === CHUNKS - 1 ? TAIL : ""}`;

const sse = (event, data) =>
  `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

const usage = (outputTokens) => ({
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: outputTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 100 + outputTokens,
});

const response = (model, status, extra = {}) => ({
  id: "resp_bench",
  object: "response",
  created_at: Math.floor(Date.now() / 1000),
  model,
  status,
  output: [],
  ...extra,
});

async function answer(req, res) {
  const record = { arrived: now(), ended: 0, json: false, sent: [] };
  if (log.length < LOG_CAP) log.push(record);
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw || "{}");
  const model = body.model ?? "model";
  const json = /json_schema|json_object/.test(JSON.stringify(body.text ?? {}));
  record.json = json;
  let open = true;
  res.on("close", () => {
    open = false;
  });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const item = (status, text) => ({
    type: "message",
    id: "msg_bench",
    status,
    role: "assistant",
    content: status === "completed" ? [{ type: "output_text", text, annotations: [] }] : [],
  });
  res.write(
    sse("response.created", { sequence_number: seq++, response: response(model, "in_progress") }),
  );
  res.write(
    sse("response.output_item.added", {
      sequence_number: seq++,
      output_index: 0,
      item: item("in_progress"),
    }),
  );
  const pieces = json ? planPieces() : null;
  let text = "";
  // Due times are fixed from the request's arrival, so timer lateness never accumulates
  // into the model time the benchmark subtracts.
  const arrived = performance.now();
  for (let i = 0; i < CHUNKS; i++) {
    await wait(arrived + TTFT_MS + i * CHUNK_MS - performance.now());
    if (!open) return;
    const delta = pieces ? pieces[i] : textPiece(i);
    text += delta;
    if (pieces) record.sent.push(now());
    res.write(
      sse("response.output_text.delta", {
        sequence_number: seq++,
        item_id: "msg_bench",
        output_index: 0,
        content_index: 0,
        delta,
        logprobs: [],
      }),
    );
  }
  res.write(
    sse("response.output_item.done", {
      sequence_number: seq++,
      output_index: 0,
      item: item("completed", text),
    }),
  );
  res.end(
    sse("response.completed", {
      sequence_number: seq++,
      // The whole output, as OpenAI sends it (the Agents SDK reads its answer from here).
      response: response(model, "completed", {
        usage: usage(CHUNKS),
        output: [item("completed", text)],
      }),
    }),
  );
  record.ended = now();
}

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url.endsWith("/log")) {
    const body = JSON.stringify(log);
    log = [];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
    return;
  }
  if (req.method === "POST" && req.url.endsWith("/responses")) {
    answer(req, res).catch(() => res.destroy());
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message: `not faked: ${req.method} ${req.url}` } }));
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/v1`);
});
process.on("SIGTERM", () => process.exit(0));

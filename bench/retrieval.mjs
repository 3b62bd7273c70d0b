#!/usr/bin/env node
// Retrieval at scale (decision 078): a generated corpus of BENCH_CHUNKS chunks (100,000 by
// default) uploaded through the API as text documents, then search latency through the
// routes the product uses: the web's search (`GET /api/documents/search`, all words) and
// the retrieval a run or an MCP client uses (any word of a task's text, MCP
// `search_documents`). Ingestion throughput is a generated PDF's pages per second, upload
// to `ready`. Against the built server: PGlite by default, PostgreSQL with
// BENCH_DATABASE_URL (an empty database). BENCH_EMBEDDING_DIM=<n> turns embeddings on
// (hybrid search) with a deterministic embeddings server of n dimensions started here.
// BENCH_SERVER_ENTRY runs another build (e.g. a copy of apps/server/dist made before a
// change). Run `node scripts/build.mjs` first.
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  makePdf,
  paragraph,
  percentile,
  signUp,
  upload,
  VOCABULARY,
  waitProcessed,
  word,
} from "./document-corpus.mjs";
import { freePort, machine, startServer } from "./server.mjs";

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);
const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 100);
/** Chunks per uploaded text document (~1.8 MB each at 2,000). */
const DOCUMENT_CHUNKS = Number(process.env.BENCH_DOCUMENT_CHUNKS ?? 2000);
const EMBEDDING_DIM = Number(process.env.BENCH_EMBEDDING_DIM ?? 0);
const GOAL_MS = { postgres: 50, pglite: 200 };
const LOG_LEVEL = "warn";
const databaseUrl = process.env.BENCH_DATABASE_URL;
const load1 = () => loadavg()[0].toFixed(2);

/** OpenAI's embeddings wire format: each word hashed to a signed coordinate, summed. */
async function startEmbeddings(dim) {
  const port = await freePort();
  const vector = (text) => {
    const v = new Array(dim).fill(0);
    for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
      v[(h >>> 0) % dim] += h & 1 ? 1 : -1;
    }
    return v;
  };
  const server = createServer((req, res) => {
    const parts = [];
    req.on("data", (part) => parts.push(part));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          model: body.model,
          data: inputs.map((input, index) => ({
            object: "embedding",
            index,
            embedding: vector(String(input)),
          })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/v1`, close: () => server.close() };
}

/** 100,000 chunks are ~90 MB of text: the owner takes Pro (2 GB) at the built-in checkout. */
async function subscribePro(url, user) {
  const headers = { cookie: user.cookie, "x-csrf-token": user.csrfToken };
  const started = await fetch(`${url}/api/billing/create-checkout-session`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ tier: "pro", billingPeriod: "monthly" }),
  });
  if (started.status !== 200) throw new Error(`checkout: ${await started.text()}`);
  const { sessionId } = await started.json();
  const paid = await fetch(`${url}/api/billing/dev-checkout/${sessionId}/pay`, {
    method: "POST",
    headers: { ...headers, origin: url },
    redirect: "manual",
  });
  if (paid.status !== 303) throw new Error(`paying the checkout: ${await paid.text()}`);
}

async function timed(count, once) {
  const times = [];
  let hits = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    hits += await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { times, hits };
}

const embeddings = EMBEDDING_DIM > 0 ? await startEmbeddings(EMBEDDING_DIM) : null;
const server = await startServer({
  ...(process.env.BENCH_SERVER_ENTRY ? { entry: process.env.BENCH_SERVER_ENTRY } : {}),
  env: {
    LOG_LEVEL,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    // MCP calls come with an access token, which has its own budget (60 a minute).
    ACCESS_TOKEN_RATE_PER_MINUTE: "1000000000",
    DOCUMENT_MAX_MB: "50",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(embeddings
      ? {
          OPENAI_COMPATIBLE_BASE_URL: embeddings.url,
          OPENAI_COMPATIBLE_MODELS: "bench-chat",
          OPENAI_COMPATIBLE_EMBEDDING_MODELS: "bench-embed",
          EMBEDDING_MODEL: "local:bench-embed",
        }
      : {}),
  },
});
const database = databaseUrl ? "postgres" : "pglite";
const config = {
  machine: `${machine()}, ${cpus().length} cores (${cpus()[0]?.model ?? "?"})`,
  database: databaseUrl ? "PostgreSQL (BENCH_DATABASE_URL)" : "PGlite (embedded)",
  corpus: `${CHUNKS} chunks of ~900 characters in text documents of ${DOCUMENT_CHUNKS} chunks, ${VOCABULARY.length}-word vocabulary (Zipf-like)`,
  embeddings: embeddings ? `${EMBEDDING_DIM} dimensions (hybrid search)` : "off (keyword search)",
  logLevel: LOG_LEVEL,
  loadBefore: load1(),
};
try {
  const user = await signUp(server.url, "bench-retrieval");
  await subscribePro(server.url, user);

  // 1. Ingestion throughput: a generated PDF, upload → ready.
  const pdf = await makePdf(PAGES);
  const pdfStarted = performance.now();
  const pdfDoc = await waitProcessed(
    server.url,
    user,
    (await upload(server.url, user, "bench.pdf", pdf)).id,
  );
  const pdfSeconds = (performance.now() - pdfStarted) / 1000;
  if (pdfDoc.status !== "ready") throw new Error(`the PDF failed: ${pdfDoc.failure_reason}`);

  // 2. The corpus: text documents, two in flight (the processor extracts two at once).
  const loadIngest = load1();
  const corpusStarted = performance.now();
  let chunks = pdfDoc.chunk_count;
  let documents = 0;
  let bytes = 0;
  const inFlight = new Set();
  while (chunks + DOCUMENT_CHUNKS * inFlight.size < CHUNKS || inFlight.size > 0) {
    if (inFlight.size < 2 && chunks + DOCUMENT_CHUNKS * inFlight.size < CHUNKS) {
      const count = Math.min(DOCUMENT_CHUNKS, CHUNKS - chunks - DOCUMENT_CHUNKS * inFlight.size);
      const text = Buffer.from(Array.from({ length: count }, () => paragraph(900)).join("\n\n"));
      bytes += text.length;
      const id = (await upload(server.url, user, `corpus-${documents++}.txt`, text)).id;
      const job = waitProcessed(server.url, user, id).then((doc) => {
        if (doc.status !== "ready")
          throw new Error(`a corpus document failed: ${doc.failure_reason}`);
        chunks += doc.chunk_count;
        inFlight.delete(job);
      });
      inFlight.add(job);
      continue;
    }
    await Promise.race(inFlight);
  }
  const corpusSeconds = (performance.now() - corpusStarted) / 1000;

  // 3. The web's search: two vocabulary words, all must match (limit 10).
  const loadSearch = load1();
  const web = await timed(SEARCHES, async () => {
    const q = `${word()} ${word()}`;
    const response = await fetch(
      `${server.url}/api/documents/search?q=${encodeURIComponent(q)}&limit=10`,
      { headers: { cookie: user.cookie } },
    );
    const body = await response.json();
    if (response.status !== 200) throw new Error(`search failed: ${JSON.stringify(body)}`);
    return body.passages.length;
  });

  // 4. A run's retrieval (any word of a task's text), through MCP search_documents.
  const tokenResponse = await fetch(`${server.url}/api/users/access-tokens`, {
    method: "POST",
    headers: {
      cookie: user.cookie,
      "x-csrf-token": user.csrfToken,
      "content-type": "application/json",
    },
    body: JSON.stringify({ name: "bench", scopes: ["chat", "sessions:read"] }),
  });
  if (tokenResponse.status !== 201) throw new Error(`token: ${await tokenResponse.text()}`);
  const { token } = await tokenResponse.json();
  const mcp = new Client({ name: "cohort-bench", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("/api/mcp", server.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const loadRun = load1();
  const run = await timed(SEARCHES, async () => {
    const query = Array.from({ length: 8 }, word).join(" ");
    const result = await mcp.callTool({
      name: "search_documents",
      arguments: { query, limit: 8 },
    });
    if (result.isError) throw new Error(`search_documents failed: ${JSON.stringify(result)}`);
    return result.structuredContent.passages.length;
  });
  await mcp.close();

  const goal = GOAL_MS[database];
  const row = (name, { times, hits }, load) => {
    const p95 = percentile(times, 0.95);
    return {
      figure: `${name} (${SEARCHES} queries, load ${load})`,
      value: `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms, ${(hits / SEARCHES).toFixed(1)} passages per query`,
      goal: `p95 < ${goal} ms ${p95 < goal ? "✔" : "✘"}`,
    };
  };
  console.log(JSON.stringify(config, null, 2));
  console.table([
    {
      figure: `ingest ${PAGES}-page PDF (${(pdf.length / 1024 / 1024).toFixed(1)} MB, ${pdfDoc.chunk_count} chunks)`,
      value: `${pdfSeconds.toFixed(2)} s to ready: ${(PAGES / pdfSeconds).toFixed(1)} pages/s`,
      goal: "printed",
    },
    {
      figure: `corpus: ${documents} text documents (${(bytes / 1024 / 1024).toFixed(0)} MB), load ${loadIngest}`,
      value: `${corpusSeconds.toFixed(1)} s: ${((chunks - pdfDoc.chunk_count) / corpusSeconds).toFixed(0)} chunks/s, ${(bytes / 1024 / 1024 / corpusSeconds).toFixed(2)} MB/s`,
      goal: `${chunks} chunks`,
    },
    row(`web search over ${chunks} chunks, all words`, web, loadSearch),
    row(`run retrieval (MCP search_documents), any of 8 words`, run, loadRun),
  ]);
  console.log(`load average after: ${load1()}`);
} finally {
  await server.stop();
  embeddings?.close();
}

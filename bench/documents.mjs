#!/usr/bin/env node
// Documents (decision 036): ingest of a generated 300-page PDF (time to `ready`,
// the server's peak RSS, extraction thread included) and search latency (p50/p95) over
// 10,000 chunks, against the built server. PGlite by default; PostgreSQL with
// BENCH_DATABASE_URL (an empty database). Run `node scripts/build.mjs` first.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import {
  makePdf,
  paragraph,
  percentile,
  signUp,
  upload,
  waitProcessed,
  word,
} from "./document-corpus.mjs";
import { machine, startServer } from "./server.mjs";

const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 300);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);
const LOG_LEVEL = "warn";
const databaseUrl = process.env.BENCH_DATABASE_URL;
const load1 = () => loadavg()[0].toFixed(2);

const server = await startServer({
  env: {
    LOG_LEVEL,
    RATE_LIMIT_PER_MINUTE: "1000000000",
    DOCUMENT_MAX_MB: "50",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
});
const config = {
  machine: machine(),
  database: databaseUrl ? "PostgreSQL (BENCH_DATABASE_URL)" : "PGlite (embedded)",
  logLevel: LOG_LEVEL,
  limits: "DOCUMENT_MAX_MB=50, extraction worker 512 MB heap, 120 s, 1000 pages (defaults)",
  loadBefore: load1(),
};
try {
  const user = await signUp(server.url);

  // 1. Ingest of a 300-page PDF: upload to `ready`, sampling the server's RSS meanwhile.
  const pdf = await makePdf(PAGES);
  const rssBefore = server.rssMb();
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssMb());
  }, 10);
  const started = performance.now();
  const uploaded = await upload(server.url, user, "bench.pdf", pdf);
  const uploadMs = performance.now() - started;
  const doc = await waitProcessed(server.url, user, uploaded.id);
  const ingestMs = performance.now() - started;
  clearInterval(sampler);
  const hwm =
    Number(
      /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, "utf8"))?.[1] ?? 0,
    ) / 1024;
  if (doc.status !== "ready") throw new Error(`the PDF failed: ${doc.failure_reason}`);

  // 2. Search over CHUNKS chunks: text documents of ~1,000 chunks each, then queries of two
  // vocabulary words, one at a time.
  let chunks = doc.chunk_count;
  let n = 0;
  while (chunks < CHUNKS) {
    const count = Math.min(1000, CHUNKS - chunks);
    const text = Array.from({ length: count }, () => paragraph(900)).join("\n\n");
    const added = await waitProcessed(
      server.url,
      user,
      (await upload(server.url, user, `bench-${n++}.txt`, Buffer.from(text))).id,
    );
    chunks += added.chunk_count;
  }
  const loadSearch = load1();
  const times = [];
  let hits = 0;
  for (let i = 0; i < SEARCHES; i++) {
    const q = `${word()} ${word()}`;
    const t0 = performance.now();
    const response = await fetch(
      `${server.url}/api/documents/search?q=${encodeURIComponent(q)}&limit=10`,
      {
        headers: { cookie: user.cookie },
      },
    );
    const body = await response.json();
    times.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`search failed: ${JSON.stringify(body)}`);
    hits += body.passages.length;
  }
  times.sort((a, b) => a - b);

  console.log(JSON.stringify(config, null, 2));
  console.table([
    {
      figure: `ingest ${PAGES}-page PDF (${(pdf.length / 1024 / 1024).toFixed(1)} MB)`,
      value: `${(ingestMs / 1000).toFixed(2)} s to ready (upload ${Math.round(uploadMs)} ms), ${doc.chunk_count} chunks`,
    },
    {
      figure: "server RSS during ingest",
      value: `${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB sampled, VmHWM ${hwm.toFixed(0)} MB`,
    },
    {
      figure: `search over ${chunks} chunks (${SEARCHES} queries, load ${loadSearch})`,
      value: `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms, ${(hits / SEARCHES).toFixed(1)} passages per query`,
    },
  ]);
  console.log(`load average after: ${load1()}`);
} finally {
  await server.stop();
}

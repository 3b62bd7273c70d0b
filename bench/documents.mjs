#!/usr/bin/env node
// Documents (decision 036): ingest of a generated 300-page PDF (time to `ready`,
// the server's peak RSS, extraction thread included) and search latency (p50/p95) over
// 10,000 chunks, against the built server. PGlite by default; PostgreSQL with
// BENCH_DATABASE_URL (an empty database). Run `node scripts/build.mjs` first.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import PDFDocument from "pdfkit";
import { csrfHeaders } from "../test-support/api-client.mjs";
import { machine, startServer } from "./server.mjs";

const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 300);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);
const LOG_LEVEL = "warn";
const databaseUrl = process.env.BENCH_DATABASE_URL;
const load1 = () => loadavg()[0].toFixed(2);

// A seeded vocabulary with a Zipf-like spread, so queries hit some chunks, not all or none.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const SYLLABLES = "ka lo mi ne ru sa ti vo ze ba de fi gu ho ja ke li mo nu pa re si to".split(" ");
const VOCABULARY = Array.from({ length: 5000 }, () =>
  Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => SYLLABLES[Math.floor(random() * SYLLABLES.length)],
  ).join(""),
);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)];
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
  return `${words.join(" ")}.`;
};
const paragraph = (chars) => {
  let text = "";
  while (text.length < chars) text += `${sentence()} `;
  return text.trim();
};

function makePdf(pages) {
  const doc = new PDFDocument({ autoFirstPage: false });
  const parts = [];
  doc.on("data", (part) => parts.push(part));
  const done = new Promise((resolve) => doc.on("end", () => resolve(Buffer.concat(parts))));
  for (let i = 0; i < pages; i++) {
    doc.addPage();
    doc.fontSize(10).text(`${paragraph(1500)}\n\n${paragraph(1200)}`);
  }
  doc.end();
  return done;
}

async function signUp(url) {
  const { cookie: csrfCookie, "x-csrf-token": csrfToken } = await csrfHeaders(url);
  const agreement = await (await fetch(`${url}/api/agreements/current`)).json();
  const response = await fetch(`${url}/api/user-auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-csrf-token": csrfToken },
    body: JSON.stringify({
      email: `bench-documents-${Date.now()}@example.com`,
      password: "bench-correct-horse-battery",
      firstName: "Bench",
      lastName: "User",
      agreementId: agreement.agreement.id,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie: `${csrfCookie}; ${session}`, csrfToken };
}

async function upload(url, user, name, bytes) {
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  const response = await fetch(`${url}/api/documents`, {
    method: "POST",
    headers: { cookie: user.cookie, "x-csrf-token": user.csrfToken },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload failed: ${await response.text()}`);
  return (await response.json()).document;
}

async function waitProcessed(url, user, id) {
  for (;;) {
    const { document } = await (
      await fetch(`${url}/api/documents/${id}`, { headers: { cookie: user.cookie } })
    ).json();
    if (document.status !== "processing") return document;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

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

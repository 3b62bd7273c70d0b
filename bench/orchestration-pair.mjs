#!/usr/bin/env node
// `npm run bench:orchestration-pair -- <before bundle>`: the run engine's overhead and server
// CPU per run for two server bundles on the same machine, interleaved (before, after, before,
// after, …) so that a load that changes during the measurement touches both alike; prints
// each pair, the medians and the after/before ratios. The "after" bundle is this checkout's
// (built when stale); the "before" one is any other build of the server, e.g. a worktree of
// an earlier commit (`git worktree add /tmp/before <commit>`, `npm ci`, `npm run build`) and
// its `apps/server/dist/main.js`; a second path names another "after" bundle (a copy of a
// build, kept while the source changes on). PGlite always; PostgreSQL too when BENCH_DATABASE_URL is
// set. BENCH_PAIRS (default 3) pairs of BENCH_RUNS (default 30) runs each.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { buildIfStale } from "../scripts/build.mjs";
import { machine, root } from "./server.mjs";

const before = process.argv[2];
if (!before || !existsSync(before)) {
  console.error("usage: npm run bench:orchestration-pair -- <path of the before server bundle>");
  process.exit(2);
}
const after = process.argv[3] ?? "apps/server/dist/main.js";
if (!process.argv[3]) await buildIfStale({ only: ["server"] });
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const RUNS = process.env.BENCH_RUNS ?? "30";
// BENCH_PAIR_DATABASES=postgres: PostgreSQL only.
const databases = [
  ...(process.env.BENCH_PAIR_DATABASES === "postgres" ? [] : [["PGlite", {}]]),
  ...(process.env.BENCH_DATABASE_URL
    ? [["PostgreSQL", { BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL }]]
    : []),
];
const LINE = /overhead: mean [\d.]+ ms, p50 ([\d.]+) ms; server CPU ([\d.]+) ms\/run/;
/** The run's head and tail (mean ms), from the stages line (decision 087). */
const STAGES = /stages \(mean ms\): head ([\d.]+),.* tail ([\d.]+)/;

function once(entry, env) {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "bench/orchestration.mjs")],
    {
      cwd: root,
      encoding: "utf8",
      env: {
        ...process.env,
        ...env,
        BENCH_ONLY: "overhead",
        BENCH_RUNS: RUNS,
        BENCH_SERVER_ENTRY: entry,
      },
    },
  );
  const match = LINE.exec(result.stdout);
  if (!match) throw new Error(`no overhead line from ${entry}:\n${result.stdout}${result.stderr}`);
  const stages = STAGES.exec(result.stdout);
  return {
    p50: Number(match[1]),
    cpu: Number(match[2]),
    head: Number(stages?.[1] ?? Number.NaN),
    tail: Number(stages?.[2] ?? Number.NaN),
    load: loadavg()[0],
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const fmt = (n) => n.toFixed(1);

console.log(
  `machine ${machine()}, ${cpus().length} cores; ${PAIRS} pairs of ${RUNS} runs; before ${before}; after ${after}`,
);
for (const [name, env] of databases) {
  const rows = { before: [], after: [] };
  for (let i = 0; i < PAIRS; i++) {
    for (const [label, entry] of [
      ["before", before],
      ["after", after],
    ]) {
      const r = once(entry, env);
      rows[label].push(r);
      console.log(
        `  ${name} ${label.padEnd(6)} overhead p50 ${fmt(r.p50)} ms, server CPU ${fmt(r.cpu)} ms/run, head ${fmt(r.head)} ms, tail ${fmt(r.tail)} ms (load ${fmt(r.load)})`,
      );
    }
  }
  const m = (label, key) => median(rows[label].map((r) => r[key]));
  console.log(
    `${name}: overhead p50 median ${fmt(m("before", "p50"))} → ${fmt(m("after", "p50"))} ms (×${(m("after", "p50") / m("before", "p50")).toFixed(2)}); server CPU per run median ${fmt(m("before", "cpu"))} → ${fmt(m("after", "cpu"))} ms (×${(m("after", "cpu") / m("before", "cpu")).toFixed(2)}); head ${fmt(m("before", "head"))} → ${fmt(m("after", "head"))} ms, tail ${fmt(m("before", "tail"))} → ${fmt(m("after", "tail"))} ms (medians of the runs' means)`,
  );
}

#!/usr/bin/env node
// `npm run bench:restart`: restarts of the built server on one existing embedded data
// directory, to the first 200 from GET /api/health, as `bench:api` measures them. With
// BENCH_BEFORE_ENTRY (another build's dist/main.js, e.g. from a worktree of an older commit)
// the two bundles start in turn, so a machine whose speed drifts treats both alike.
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale } from "../scripts/build.mjs";
import { machine, startServer } from "./server.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CURRENT = "apps/server/dist/main.js";
const BEFORE = process.env.BENCH_BEFORE_ENTRY;

await buildIfStale({ only: ["server"] });
const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-restart-"));
const entries = BEFORE ? { before: BEFORE, current: CURRENT } : { current: CURRENT };

const rss = {};
async function restart(entry) {
  const server = await startServer({ dataDir, entry });
  // RSS right after start (the first 200 from /api/health), as bench:api reads it.
  rss[entry] = [...(rss[entry] ?? []), server.rssMb()];
  await server.stop();
  return server.startMs;
}

// The first start makes the data directory; it is not a restart.
await restart(CURRENT);
const times = Object.fromEntries(Object.keys(entries).map((name) => [name, []]));
const names = Object.keys(entries);
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which bundle goes first, so neither always follows the other.
  for (const name of round % 2 ? [...names].reverse() : names) {
    times[name].push(await restart(entries[name]));
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`machine        ${machine()}`);
console.log(`date           ${new Date().toISOString()}`);
console.log(
  `configuration  embedded PGlite, LOG_LEVEL=info, ${ROUNDS} restarts each, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const name of names) {
  const all = times[name].map((ms) => ms.toFixed(0)).join(", ");
  console.log(
    `${name.padEnd(14)} median ${median(times[name]).toFixed(0)} ms (${all}), RSS after start median ${median(rss[entries[name]]).toFixed(0)} MB — ${entries[name]}`,
  );
}

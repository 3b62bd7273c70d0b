// The run queue's cost on an idle instance (decision 086): statements a second the server
// sends while nothing runs (the queue's apart), and the CPU the server and its PostgreSQL
// backends use meanwhile. Needs BENCH_DATABASE_URL (each server gets a fresh database).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/queue-idle.mjs [entry…]
// With several entries (builds of the server), they are measured in turns, BENCH_PAIRS times.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIfStale } from "../scripts/build.mjs";
import { root, serverCpuMs, startServer } from "./server.mjs";

const pg = createRequire(path.join(root, "apps/server/package.json"))("pg");
const url = process.env.BENCH_DATABASE_URL;
if (!url)
  throw new Error("BENCH_DATABASE_URL is required: the run queue exists on PostgreSQL only");
const entries =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["apps/server/dist/main.js"];
if (entries.includes("apps/server/dist/main.js")) await buildIfStale({ only: ["server"] });
const WARM_S = Number(process.env.BENCH_WARM_S ?? 8);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 1);

/** CPU ms the backends connected to `database` used so far (they run on this machine). */
async function backendsCpuMs(stats, database) {
  const { rows } = await stats.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
    database,
  ]);
  let total = 0;
  for (const { pid } of rows) {
    try {
      total += serverCpuMs(pid);
    } catch {
      // the backend ended
    }
  }
  return total;
}

async function measure(entry, round) {
  const database = `cohort_bench_idle_${process.pid}_${round}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const fresh = new URL(url);
  fresh.pathname = `/${database}`;
  const file = path.join(tmpdir(), `${database}.json`);
  const server = await startServer({
    entry,
    env: {
      LOG_LEVEL: "warn",
      DATABASE_URL: fresh.toString(),
      NODE_OPTIONS: `--import ${path.join(root, "bench/count-statements.mjs")}`,
      BENCH_COUNT_STATEMENTS_FILE: file,
    },
  });
  const read = async () => {
    server.child.kill("SIGUSR2");
    await sleep(300);
    return JSON.parse(readFileSync(file, "utf8"));
  };
  await sleep(WARM_S * 1000);
  const before = await read();
  const cpu0 = serverCpuMs(server.child.pid);
  const pg0 = await backendsCpuMs(admin, database);
  await sleep(WINDOW_S * 1000);
  const after = await read();
  const cpu1 = serverCpuMs(server.child.pid);
  const pg1 = await backendsCpuMs(admin, database);
  await server.stop();
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  await admin.end();
  let queue = 0;
  let other = 0;
  for (const [text, count] of Object.entries(after)) {
    const delta = count - (before[text] ?? 0);
    if (/graphile_worker/i.test(text)) queue += delta;
    else other += delta;
  }
  console.log(
    `${entry}: queue statements ${(queue / WINDOW_S).toFixed(2)}/s, other ${(other / WINDOW_S).toFixed(2)}/s; server CPU ${((cpu1 - cpu0) / WINDOW_S).toFixed(1)} ms/s, PostgreSQL backends ${((pg1 - pg0) / WINDOW_S).toFixed(1)} ms/s (load ${loadavg()[0].toFixed(1)})`,
  );
}

for (let round = 0; round < PAIRS; round++) {
  for (const entry of entries) await measure(entry, round);
}

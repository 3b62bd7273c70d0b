#!/usr/bin/env node
// run_code's embedded sandbox (decision 062): cold start (a new child process loading the
// engine), warm start (a started one waiting), and the `print(1)` round trip (run() called →
// result) p50/p95 with a warm sandbox, for Python (Pyodide) and JavaScript (QuickJS).
// `npm run bench:code`; BENCH_CODE_RUNS sets the round trips per language.
import { loadavg } from "node:os";
import { CodeSandbox } from "../apps/server/src/modules/code-runner/sandbox.ts";
import { machine } from "./server.mjs";

const RUNS = Number(process.env.BENCH_CODE_RUNS ?? 10);
const limits = { timeoutMs: 10_000, memoryBytes: 256 * 1024 * 1024, outputBytes: 1024 * 1024 };
const load1 = () => loadavg()[0].toFixed(2);
const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (v) => `${v.toFixed(0)} ms`;

console.log(`code-runner bench — ${machine()}, load ${load1()}`);
console.log(
  `config: time limit ${limits.timeoutMs / 1000} s, memory ${limits.memoryBytes / 1024 / 1024} MB, output ${limits.outputBytes / 1024} KB, ${RUNS} round trips per language`,
);

const programs = { python: "print(1)", javascript: "console.log(1)" };
for (const language of ["python", "javascript"]) {
  const code = programs[language];
  // Cold: no sandbox waiting; the run starts one and waits for its engine.
  const cold = new CodeSandbox(limits, { warm: false });
  const coldStarted = performance.now();
  const first = await cold.run({ language, code, files: [], runTests: false });
  const coldTotal = performance.now() - coldStarted;
  if (first.stdout !== "1\n")
    throw new Error(`${language}: unexpected output ${JSON.stringify(first)}`);
  cold.close();

  // Warm: a started sandbox waits; each run takes it and the next one starts behind.
  const warm = new CodeSandbox(limits, { warm: true });
  warm.prewarm([language]);
  const trips = [];
  for (let i = 0; i < RUNS; i += 1) {
    // Let the replacement finish starting, as it would between two steps of a run.
    await warm.whenWarm(language);
    const started = performance.now();
    const r = await warm.run({ language, code, files: [], runTests: false });
    trips.push(performance.now() - started);
    if (r.stdout !== "1\n" || r.startMs !== 0) {
      throw new Error(`${language}: the warm run was not warm ${JSON.stringify(r)}`);
    }
  }
  warm.close();
  trips.sort((a, b) => a - b);
  console.log(
    `${language}: cold start ${ms(first.startMs)} (run() → result ${ms(coldTotal)}); ` +
      `warm print(1) round trip p50 ${ms(pct(trips, 50))} / p95 ${ms(pct(trips, 95))} / max ${ms(trips.at(-1))}; load ${load1()}`,
  );
}

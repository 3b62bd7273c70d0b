// Preloaded into the server by `BENCH_CPU_PROF=dir` (NODE_OPTIONS=--import …; Node 20 does
// not take --cpu-prof there): profiles the whole process and writes a .cpuprofile file into
// the directory when it exits. Open it in Chrome DevTools or speedscope.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR ?? ".";
const session = new Session();
session.connect();
session.post("Profiler.enable");
// BENCH_CPU_PROF_INTERVAL_US: the sampling interval (default 1 ms; 100 µs for a short window).
const interval = Number(process.env.BENCH_CPU_PROF_INTERVAL_US ?? 1000);
session.post("Profiler.setSamplingInterval", { interval });
session.post("Profiler.start");
process.once("exit", () => {
  // The same-thread session answers synchronously, so this completes before the exit.
  session.post("Profiler.stop", (error, result) => {
    if (error) return;
    writeFileSync(
      path.join(dir, `server-${process.pid}.cpuprofile`),
      JSON.stringify(result.profile),
    );
  });
});

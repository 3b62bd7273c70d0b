#!/usr/bin/env node
// `node bench/window-profile.mjs <timeline.jsonl> <server.cpuprofile> [head|launch|tail]`: where the
// server's CPU went inside one stretch of every run, from a CPU profile and a timeline taken
// together (`BENCH_TIMELINE=file BENCH_CPU_PROF=dir BENCH_CPU_PROF_INTERVAL_US=100
// BENCH_ONLY=overhead npm run bench:orchestration`). head: a run's POST arrives → its first
// provider request leaves; tail: its end statement is sent → the last answer to a client
// (the poll carrying `run.completed`) before the next POST. Runs after the first three.
// Prints the samples' time per run by function (self) and by package or source folder, so
// a stretch's CPU is read alone, not mixed with the streaming between (decision 094). launch:
// the start statement's answer → the first provider request (the head's last stretch).
import { readFileSync } from "node:fs";
import { label, where } from "./profile-frames.mjs";

const [timelineFile, profileFile, which = "head"] = process.argv.slice(2);
if (!timelineFile || !profileFile || !["head", "launch", "tail"].includes(which)) {
  console.error(
    "usage: node bench/window-profile.mjs <timeline.jsonl> <file.cpuprofile> [head|launch|tail]",
  );
  process.exit(2);
}
const lines = readFileSync(timelineFile, "utf8").trim().split("\n").map(JSON.parse);
lines.sort((a, b) => a.at - b.at);
const clock = lines.find((e) => e.kind === "clock");
if (!clock) throw new Error("the timeline has no clock line (bench/run-timeline.mjs)");
/** A profile stamp (monotonic µs) on the timeline's wall clock (ms). */
const wall = (us) => clock.at + (us - clock.monotonicUs) / 1000;

const posts = lines.filter((e) => e.kind === "http.in" && e.url === "/api/ai/chat");
const windows = [];
for (let i = 3; i < posts.length; i++) {
  const from = posts[i].at;
  const next = posts[i + 1]?.at ?? Number.POSITIVE_INFINITY;
  const events = lines.filter((e) => e.at >= from && e.at < next);
  if (which === "head" || which === "launch") {
    const request = events.find((e) => e.kind === "fetch");
    const start = events.find((e) => e.kind === "sql" && e.text.startsWith("WITH account AS"));
    if (request && which === "head") windows.push([from, request.at]);
    else if (request && start) windows.push([start.done, request.at]);
  } else {
    const end =
      events.filter((e) => e.kind === "sql" && e.text.startsWith("WITH message_touch AS")).at(-1) ??
      events.filter((e) => e.kind === "sql" && e.text.startsWith("WITH hold AS")).at(-1);
    const out = events.filter((e) => e.kind === "http.out" && e.at > (end?.at ?? next)).at(-1);
    if (end && out) windows.push([end.at, out.at]);
  }
}
if (windows.length === 0) throw new Error(`no ${which} windows found`);

const profile = JSON.parse(readFileSync(profileFile, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const bySelf = new Map();
const byWhere = new Map();
let inside = 0;
let idle = 0;
let w = 0;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const at = wall(t);
  while (w < windows.length && windows[w][1] < at) w++;
  if (w >= windows.length) break;
  if (at < windows[w][0]) continue;
  const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000;
  const frame = nodes.get(profile.samples[i]).callFrame;
  if (frame.functionName === "(idle)") {
    idle += dt;
    continue;
  }
  inside += dt;
  bySelf.set(label(frame), (bySelf.get(label(frame)) ?? 0) + dt);
  byWhere.set(where(frame), (byWhere.get(where(frame)) ?? 0) + dt);
}
const span = windows.map(([a, b]) => b - a).sort((a, b) => a - b);
const n = windows.length;
const perRun = (ms) => `${(ms / n).toFixed(3)} ms`;
console.log(
  `${which}: ${n} runs, window p50 ${span[Math.floor(n / 2)].toFixed(2)} ms; busy ${perRun(inside)} a run, idle ${perRun(idle)} (sampling ${(profile.timeDeltas[1] ?? 0) / 1000} ms)`,
);
const top = (map, count) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([k, v]) =>
        `  ${perRun(v).padStart(10)}  ${((v / inside) * 100).toFixed(1).padStart(5)} %  ${k}`,
    )
    .join("\n");
console.log(`by package or folder (self):\n${top(byWhere, 20)}`);
console.log(`by function (self):\n${top(bySelf, 40)}`);

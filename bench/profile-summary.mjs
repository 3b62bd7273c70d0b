#!/usr/bin/env node
// `node bench/profile-summary.mjs <file.cpuprofile> [filter]`: where a V8 CPU profile's time
// went, for reading in a terminal: the top functions by self time (with their file), the top
// by total (inclusive) time, and self time per package or source folder. With a filter (a
// substring of a function or file name), the inclusive time is only of the stacks that pass
// through a matching frame, e.g. `listSessions` or `fastify`. Decision 072.
import { readFileSync } from "node:fs";
import { label, where } from "./profile-frames.mjs";

const [file, filter] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [filter]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const intervals = profile.timeDeltas;
const total = intervals.reduce((a, b) => a + b, 0) / 1000;

const self = new Map();
const inclusive = new Map();
const byPlace = new Map();
let matched = 0;
profile.samples.forEach((id, i) => {
  const ms = (intervals[i] ?? 0) / 1000;
  const leaf = nodes.get(id);
  const stack = [];
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(nodes.get(cur).callFrame);
  if (filter && !stack.some((f) => label(f).includes(filter))) return;
  matched += ms;
  const key = label(leaf.callFrame);
  self.set(key, (self.get(key) ?? 0) + ms);
  const place = where(leaf.callFrame);
  byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  for (const f of new Set(stack.map(label))) inclusive.set(f, (inclusive.get(f) ?? 0) + ms);
});
const top = (map, n) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, v]) =>
        `${v.toFixed(0).padStart(7)} ms ${((v / matched) * 100).toFixed(1).padStart(5)}%  ${k}`,
    )
    .join("\n");
console.log(
  `${file}: ${total.toFixed(0)} ms sampled${filter ? `, ${matched.toFixed(0)} ms through "${filter}"` : ""}`,
);
console.log(`\nself time by package / folder:\n${top(byPlace, 25)}`);
console.log(`\ntop self time:\n${top(self, 40)}`);
console.log(`\ntop inclusive time:\n${top(inclusive, 60)}`);

#!/usr/bin/env node
// `node bench/timeline-summary.mjs <timeline.jsonl>…`: a run's head and tail from the server's
// own timeline (`BENCH_TIMELINE=file npm run bench:orchestration`, bench/run-timeline.mjs), as
// quartiles over the runs after the first three (warm-up), for each file given (decision 087).
// Head: the POST's arrival → the start statement (message + run + plan hold) sent → its
// answer → the first provider request; the statements sent before the start. Tail: the last
// settlement's round trip, the end statement's, and how long after the end was sent the
// last event write it waits for returned (`flush`, decision 086). With the CPU the server spent
// from the start's answer, and from the POST, to the provider request (decision 090). Since
// decision 091 the synthesis's settlement is in the end statement: a run with no "WITH
// message_touch" end ended in its last "WITH hold AS" statement (the timeline keeps only a
// text's start), which is then both its last settlement and its end; "separate" counts the
// runs that had two.
import { readFileSync } from "node:fs";

const quartiles = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return "-";
  const at = (p) => s[Math.min(s.length - 1, Math.floor(s.length * p))].toFixed(2);
  return `${at(0.25)} / ${at(0.5)} / ${at(0.75)}`;
};

for (const file of process.argv.slice(2)) {
  const lines = readFileSync(file, "utf8").trim().split("\n").map(JSON.parse);
  lines.sort((a, b) => a.at - b.at);
  const posts = lines.filter((e) => e.kind === "http.in" && e.url === "/api/ai/chat");
  const sql = (events, prefix) =>
    events.filter((e) => e.kind === "sql" && e.text.startsWith(prefix));
  const rows = [];
  for (let i = 3; i < posts.length; i++) {
    const post = posts[i];
    const next = posts[i + 1]?.at ?? Number.POSITIVE_INFINITY;
    const events = lines.filter((e) => e.at >= post.at && e.at < next);
    const start = sql(events, "WITH account AS")[0];
    const fetch = events.find((e) => e.kind === "fetch");
    const alone = sql(events, "WITH message_touch AS")[0];
    const end = alone ?? sql(events, "WITH hold AS").at(-1);
    if (!start || !fetch || !end) continue;
    const folded = (e) => e === end && !alone;
    const settle = alone
      ? sql(events, "WITH hold AS")
          .filter((e) => e.at < end.at)
          .at(-1)
      : end;
    // The event writes the end waits for: those under way when it was sent or sent beside it,
    // and one that starts as one of them returns (the next gathered write, drained at once).
    const allWrites = sql(events, "WITH e AS");
    const writes = allWrites.filter((e) => e.done > end.at && e.at <= end.at + 1);
    for (const w of allWrites) {
      if (!writes.includes(w) && writes.some((x) => w.at >= x.done && w.at - x.done < 0.25)) {
        writes.push(w);
      }
    }
    rows.push({
      "POST → start sent": start.at - post.at,
      "start statement": start.done - start.at,
      "start answered → provider request": fetch.at - start.done,
      "POST → provider request": fetch.at - post.at,
      // The server's CPU in those stretches (timelines that record it): it does not grow with
      // the machine's load as their wall time does (decision 090).
      "  its CPU: start answered → request": fetch.cpu - start.doneCpu,
      "  its CPU: POST → request": fetch.cpu - post.cpu,
      "statements before the start": events.filter((e) => e.kind === "sql" && e.at < start.at)
        .length,
      // The provider's answer read to its end → the end statement sent (decision 094).
      "last answer read → end sent":
        end.at -
        (events.filter((e) => e.kind === "fetch.end" && e.at <= end.at).at(-1)?.at ?? Number.NaN),
      "last settlement": settle ? settle.done - settle.at : Number.NaN,
      "end statement": end.done - end.at,
      "last settlement sent → end answered": end.done - (settle ? settle.at : end.at),
      "settlement separate from the end": folded(end) ? 0 : 1,
      "end sent → its event writes done": Math.max(end.done, ...writes.map((w) => w.done)) - end.at,
    });
  }
  console.log(`${file}: ${rows.length} runs (ms, p25 / p50 / p75)`);
  if (rows.length === 0) continue;
  for (const key of Object.keys(rows[0])) {
    console.log(`  ${key.padEnd(36)} ${quartiles(rows.map((r) => r[key]))}`);
  }
}

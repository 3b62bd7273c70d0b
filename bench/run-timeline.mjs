// Preloaded into the server by `BENCH_TIMELINE=file` (NODE_OPTIONS=--import …, like
// cpu-profile.mjs): records, on the wall clock the fake provider logs with, when each HTTP
// request arrived and its answer finished, when each outgoing request (undici or node:http:
// the provider) was made, and when each PostgreSQL statement was sent and answered (its text's start).
// Written as JSON lines to the file when the process exits; `bench/timeline-summary.mjs`
// reads it run by run (decision 087).
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

const file = process.env.BENCH_TIMELINE;
const now = () => performance.timeOrigin + performance.now();
/** The process's CPU so far (ms, user + system): a stage's CPU does not grow with the load. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const lines = [];
const record = (kind, at, detail) =>
  lines.push(JSON.stringify({ kind, at, cpu: cpu(), ...detail }));
// The wall clock beside the monotonic one V8's CPU profiles stamp their samples with (µs), so
// bench/window-profile.mjs can put a profile's samples into the timeline's windows.
record("clock", now(), { monotonicUs: Number(process.hrtime.bigint() / 1000n) });

subscribe("http.server.request.start", ({ request }) => {
  record("http.in", now(), { method: request.method, url: request.url });
});
subscribe("http.server.response.finish", ({ request }) => {
  record("http.out", now(), { method: request.method, url: request.url });
});
subscribe("undici:request:create", ({ request }) => {
  record("fetch", now(), { method: request.method, url: `${request.origin}${request.path}` });
});
// Provider requests on node:http (Cohort's own stream readers; the plan's too since the head's
// second cut, decision 090): a request is written on the tick its socket queues, so it is
// recorded on the tick after, as it leaves (later than undici's, recorded as it is made).
const onSocket = http.ClientRequest.prototype.onSocket;
http.ClientRequest.prototype.onSocket = function recordedOnSocket(...args) {
  const result = onSocket.apply(this, args);
  process.nextTick(() => {
    record("fetch", now(), { method: this.method, url: `${this.host}${this.path}` });
  });
  // And when its answer's last byte was read: the start of a run's tail (decision 094).
  if (!this.recordedEnd) {
    this.recordedEnd = true;
    this.once("response", (response) => {
      response.once("end", () => {
        record("fetch.end", now(), { method: this.method, url: `${this.host}${this.path}` });
      });
    });
  }
  return result;
};

// The server's own copy of the driver: resolved from the bundle's folder, as it imports it.
const require = createRequire(path.join(process.cwd(), "apps/server/package.json"));
const pg = require("pg");
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, ...rest) {
  const text = typeof config === "string" ? config : config?.text;
  if (typeof text !== "string") return original.call(this, config, ...rest);
  const sent = now();
  const sentCpu = cpu();
  const key = text.replace(/\s+/g, " ").trim().slice(0, 90);
  const done = (failed) =>
    record("sql", sent, { done: now(), doneCpu: cpu(), cpu: sentCpu, text: key, failed });
  // pg-pool passes a callback (the answer comes there); a bare client call returns a promise.
  const last = rest.length - 1;
  if (typeof rest[last] === "function") {
    const callback = rest[last];
    rest[last] = (error, ...answer) => {
      done(Boolean(error));
      return callback(error, ...answer);
    };
    return original.call(this, config, ...rest);
  }
  const result = original.call(this, config, ...rest);
  if (result && typeof result.then === "function") {
    result.then(
      () => done(false),
      () => done(true),
    );
  }
  return result;
};

process.once("exit", () => {
  if (file) writeFileSync(file, `${lines.join("\n")}\n`);
});

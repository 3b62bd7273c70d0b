#!/usr/bin/env node
// `BENCH_DATABASE_URL=postgres://… node --import tsx bench/page-statement-cpu.mjs`: what the
// sign-in's statement with one's own page (decision 089) costs PostgreSQL and the driver, per
// execution, on one connection: the backend's CPU from /proc (PostgreSQL on this machine),
// the client's from process.cpuUsage(). Cases, interleaved in BENCH_ROUNDS (default 5) rounds
// of BENCH_EXECUTIONS (default 2,000): the page unchanged (the kept version passed), the page
// sent (no version kept), the sign-in alone, and `SELECT 1` (the round trip's floor). Signs a
// user up with 50 sessions through a server of this checkout first (its database: the URL's).
import { readFileSync } from "node:fs";
import pg from "pg";
import { resolveSignInRiding } from "../apps/server/src/modules/auth/resolve-sign-in.ts";
import { NEWEST_RUN_JOIN } from "../apps/server/src/modules/orchestration/session-run-facts.ts";
import { personalPageRider } from "../apps/server/src/modules/sessions/list-sessions.ts";
import { hashOpaqueToken } from "../apps/server/src/platform/opaque-token.ts";
import { apiCall } from "../test-support/api-client.mjs";
import { startServer } from "./server.mjs";

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error("BENCH_DATABASE_URL names the PostgreSQL database");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 2000);

/** The statements as the server makes them: captured from the auth module's call. */
async function statementOf(rider, params) {
  let sql = "";
  const capture = {
    query: async (text) => {
      sql = text;
      return { rows: [], rowCount: 0 };
    },
  };
  await resolveSignInRiding(capture, "x".repeat(40), { idleDays: 30 }, rider, params);
  return sql;
}
const page = await statementOf(personalPageRider(NEWEST_RUN_JOIN), () => [null, 20, 0, null]);
const signInOnly = page.replace(/, \(\s*WITH page_rows[\s\S]*\) AS ridden/, "");

const server = await startServer({
  env: { DATABASE_URL: url, LOG_LEVEL: "warn", SIGNUP_LIMIT_PER_HOUR: "1000000" },
});
let token;
try {
  const { agreement } = await apiCall(server.url, "GET", "/api/agreements/current");
  ({ token } = await apiCall(server.url, "POST", "/api/user-auth/signup", {
    anonymousMutation: true,
    body: {
      email: `bench-${Date.now()}@example.com`,
      password: "benchmark passphrase 1",
      firstName: "Bench",
      lastName: "Mark",
      agreementId: agreement.id,
    },
  }));
  for (let i = 0; i < 50; i++) {
    await apiCall(server.url, "POST", "/api/sessions", {
      bearer: token,
      body: { title: `S ${i}` },
    });
  }
} finally {
  await server.stop();
}
const hash = hashOpaqueToken(token);

const client = new pg.Client({ connectionString: url });
await client.connect();
const pid = (await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
const backendMs = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const first = await client.query({ name: "page", text: page, values: [hash, null, 20, 0, null] });
const ridden = first.rows[0].ridden;
if (!ridden?.includes("\n")) throw new Error("the page did not come");
const version = ridden.slice(0, ridden.indexOf("\n"));
const cases = {
  "page unchanged (version kept)": {
    name: "page",
    text: page,
    values: [hash, null, 20, 0, version],
  },
  "page sent (no version kept)": { name: "page", text: page, values: [hash, null, 20, 0, null] },
  "sign-in alone": { name: "sign-in", text: signInOnly, values: [hash] },
  "SELECT 1": { name: "one", text: "SELECT 1", values: [] },
};
const figures = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, query] of Object.entries(cases)) {
    for (let i = 0; i < 200; i++) await client.query(query);
    const backend = backendMs();
    const own = process.cpuUsage();
    for (let i = 0; i < EXECUTIONS; i++) await client.query(query);
    const used = process.cpuUsage(own);
    figures[name].push({
      backendUs: ((backendMs() - backend) * 1000) / EXECUTIONS,
      clientUs: (used.user + used.system) / EXECUTIONS,
    });
  }
}
await client.end();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, rounds] of Object.entries(figures)) {
  console.log(
    `${name}: PostgreSQL ${median(rounds.map((r) => r.backendUs)).toFixed(0)} µs (min ${Math.min(...rounds.map((r) => r.backendUs)).toFixed(0)}), driver ${median(rounds.map((r) => r.clientUs)).toFixed(0)} µs CPU per execution (median of ${ROUNDS} rounds of ${EXECUTIONS})`,
  );
}

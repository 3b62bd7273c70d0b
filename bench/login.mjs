#!/usr/bin/env node
// `npm run bench:login`: sign-in throughput and latency through HTTP, and how many password
// checks one core does per second (argon2id, m=19 MiB, t=2, p=1, as the server hashes).
import { cpus } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import autocannon from "autocannon";
import { csrfHeaders } from "../test-support/api-client.mjs";
import { machine, startServer } from "./server.mjs";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 20;
const PASSWORD = "bench-correct-horse-battery";
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

async function perCoreVerifies() {
  const stored = await hash(PASSWORD, OPTIONS);
  const rounds = 40;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await verify(stored, PASSWORD);
  const msEach = (performance.now() - started) / rounds;
  return { msEach, perSecond: 1000 / msEach };
}

async function signUpUser(url, agreementId, n) {
  const { cookie, "x-csrf-token": csrfToken } = await csrfHeaders(url);
  const email = `bench-${Date.now()}-${n}@example.com`;
  const response = await fetch(`${url}/api/user-auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, "x-csrf-token": csrfToken },
    body: JSON.stringify({
      email,
      password: PASSWORD,
      firstName: "Bench",
      lastName: "User",
      agreementId,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return { email, cookie, csrfToken };
}

const core = await perCoreVerifies();
const server = await startServer({
  env: { RATE_LIMIT_PER_MINUTE: "1000000000", SIGNUP_LIMIT_PER_HOUR: "1000", LOG_LEVEL: "warn" },
});
// The sign-in budget (decision 017) counts every attempt before the password is checked:
// 5 at once for one (account, IP) pair is already over it. So each connection signs in to an
// account of its own, one attempt at a time, as that many people behind one address would;
// 20 in flight from one IP is the per-IP budget, which a success gives back.
const agreement = await (await fetch(`${server.url}/api/agreements/current`)).json();
const users = [];
for (let n = 0; n < CONNECTIONS; n++)
  users.push(await signUpUser(server.url, agreement.agreement.id, n));
let nextUser = 0;
const result = await autocannon({
  url: `${server.url}/api/user-auth/login`,
  method: "POST",
  connections: CONNECTIONS,
  duration: DURATION_S,
  setupClient(client) {
    const user = users[nextUser++ % users.length];
    client.setHeaders({
      "content-type": "application/json",
      cookie: user.cookie,
      "x-csrf-token": user.csrfToken,
    });
    client.setBody(JSON.stringify({ email: user.email, password: PASSWORD }));
  },
});
await server.stop();

const rows = [
  ["machine", `${machine()}, ${cpus().length} cores`],
  ["date", new Date().toISOString().slice(0, 10)],
  [
    "argon2id verify on one core",
    `${core.msEach.toFixed(1)} ms each → ${core.perSecond.toFixed(0)} logins/s per core`,
  ],
  [
    `POST /api/user-auth/login (${CONNECTIONS} conns, ${DURATION_S} s)`,
    `${Math.round(result.requests.average)} logins/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  ],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);

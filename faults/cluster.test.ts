import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CLIENT_EVENTS,
  SERVER_EVENTS,
  type TJoinSessionAck,
  type TRunEvent,
} from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../e2e/support/server";
import {
  adminToken,
  createSession,
  grantCredits,
  RUN_ENDS,
  sendMessage,
  signUp,
} from "./support/api";
import { findFaultTools } from "./support/find-fault-tools.mjs";
import { PrivatePostgres } from "./support/postgres";
import { PrivateRedis } from "./support/redis";
import { waitFor, within } from "./support/wait";

/**
 * `npm run cluster` as a user runs it (the README's command, the Dockerfile's instance
 * command): two built instances on one PostgreSQL and one Redis behind HAProxy. Through
 * HAProxy only: readiness, the sticky cookie spreading new browsers over both instances, a
 * whole run followed over socket.io polling pinned by that cookie, and a clean drain on SIGTERM.
 */
const root = path.resolve(import.meta.dirname, "..");
const ADMIN_EMAIL = "admin@cohort.test";
const ADMIN_PASSWORD = "cluster-Admin-passphrase-42";

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let cluster: ChildProcess | undefined;
let output = "";
let baseUrl = "";

beforeAll(async () => {
  const tools = findFaultTools();
  if (!tools.ok) throw new Error(`The fault tests need: ${tools.missing.join("; ")}`);
  [postgres, redis] = await Promise.all([
    PrivatePostgres.start(tools),
    PrivateRedis.start(tools.redisServer),
  ]);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  cluster = spawn(process.execPath, [path.join(root, "scripts/cluster.mjs")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      // Its two instances listen on this port and the next.
      CLUSTER_FIRST_PORT: String(await freePort(2)),
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-cluster-")),
      COOKIE_SECRET: randomBytes(32).toString("base64url"),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
      LOG_FORMAT: "json",
      SIGNUP_CREDITS: "0",
      SIMULATOR_TOKENS_PER_SECOND: "2000",
      SHUTDOWN_GRACE_SECONDS: "5",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  cluster.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  cluster.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  await waitFor(
    90_000,
    "the cluster's readiness through HAProxy",
    async () => {
      if (cluster?.exitCode !== null) throw new Error(`npm run cluster ended:\n${output}`);
      const response = await fetch(`${baseUrl}/api/health/ready`).catch(() => null);
      return response?.ok ? true : undefined;
    },
    { intervalMs: 250, describe: () => output.slice(-2000) },
  );
}, 120_000);

afterAll(async () => {
  if (cluster && cluster.exitCode === null) {
    cluster.kill("SIGKILL");
    await new Promise((resolve) => cluster?.once("exit", resolve));
  }
  await redis?.stop();
  await postgres?.drop();
});

/** Which instance HAProxy's cookie pins a new browser to. */
async function instanceCookie(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/health/ready`);
  const cookie = response.headers.get("set-cookie") ?? "";
  const match = /COHORT_INSTANCE=(\w+)/.exec(cookie);
  if (!match?.[1]) throw new Error(`no COHORT_INSTANCE cookie in "${cookie}"`);
  return match[1];
}

it("serves through HAProxy: both instances, sticky sockets, a whole run, then a clean drain", async () => {
  // New browsers go to both instances, each pinned by the cookie.
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) seen.add(await instanceCookie());
  expect([...seen].sort()).toEqual(["app1", "app2"]);

  const user = await signUp(baseUrl);
  await grantCredits(baseUrl, await adminToken(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD), user.id, 50);
  const session = await createSession(baseUrl, user.token);

  // socket.io's polling needs every request on one instance: the cookie keeps it there.
  const pinned = await instanceCookie();
  const socket: Socket = connect(baseUrl, {
    transports: ["polling"],
    reconnection: false,
    auth: { token: user.token },
    extraHeaders: { cookie: `COHORT_INSTANCE=${pinned}` },
  });
  const events: TRunEvent[] = [];
  socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => events.push(event));
  try {
    await within(
      10_000,
      "the socket's connection",
      new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", reject);
      }),
    );
    const ack = (await socket
      .timeout(5_000)
      .emitWithAck(CLIENT_EVENTS.joinSession, { sessionId: session.id })) as TJoinSessionAck;
    expect(ack.ok).toBe(true);
    // The message goes through HAProxy without the cookie: either instance may take it.
    const started = await sendMessage(baseUrl, user.token, session.id, "Plan a picnic");
    const end = await waitFor(60_000, "the run's end on the socket", () =>
      events.find((e) => e.run_id === started.run_id && RUN_ENDS.has(e.type)),
    );
    expect(end.type).toBe("run.completed");
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
  } finally {
    socket.close();
  }

  // Ctrl-C / SIGTERM: both instances drain, HAProxy stops, the script ends by itself with 0.
  const exited = new Promise<number | null>((resolve) => cluster?.once("exit", resolve));
  cluster?.kill("SIGTERM");
  expect(await within(40_000, "the cluster's exit after SIGTERM", exited)).toBe(0);
  expect(output).toContain("draining");
  expect(await fetch(`${baseUrl}/api/health/ready`).catch(() => null)).toBeNull();
}, 180_000);

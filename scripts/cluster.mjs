#!/usr/bin/env node
// `npm run cluster`: N instances of the built server on one PostgreSQL (DATABASE_URL) and one
// Redis (REDIS_URL) behind HAProxy, on http://localhost:$PORT (default 3000). The instances
// run the same command as the Dockerfile (`node apps/server/dist/main.js`); HAProxy keeps a
// browser on one instance with a cookie (socket.io's polling needs it), checks each
// instance's readiness, and stops sending to one that drains.
//
//   DATABASE_URL=postgres://… REDIS_URL=redis://… npm run cluster [-- --instances 3]
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfStale } from "./build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const instances = Number.parseInt(option("instances", process.env.CLUSTER_INSTANCES ?? "2"), 10);
const haproxy = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/usr/bin/haproxy"].find((p) =>
  existsSync(p),
);

/** What stops the cluster from starting, in one sentence; null when nothing does. */
function setupProblem() {
  if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
    return "--instances must be a whole number from 1 to 16.";
  }
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    return (
      "several instances share one PostgreSQL and one Redis: set DATABASE_URL and REDIS_URL " +
      "(e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/cohort REDIS_URL=redis://127.0.0.1:6379)."
    );
  }
  if (!haproxy && spawnSync("haproxy", ["-v"]).status !== 0) {
    return "HAProxy is not installed (Debian: apt-get install -y haproxy).";
  }
  return null;
}

/** Writes HAProxy's configuration, starts the instances, then HAProxy in front of them. */
async function runCluster() {
  const port = Number.parseInt(process.env.PORT ?? "3000", 10);
  const host = process.env.HOST ?? "127.0.0.1";
  const firstPort = Number.parseInt(process.env.CLUSTER_FIRST_PORT ?? String(port + 101), 10);
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, "data"));
  const clusterDir = path.join(dataDir, "cluster");
  mkdirSync(clusterDir, { recursive: true });

  // Every instance must sign cookies and encrypt keys alike: one secret each, for all of them.
  const shared = {
    COOKIE_SECRET: process.env.COOKIE_SECRET ?? randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString("base64"),
  };
  if (!process.env.COOKIE_SECRET || !process.env.ENCRYPTION_KEY) {
    console.log(
      "cluster: COOKIE_SECRET / ENCRYPTION_KEY not set: this run uses fresh ones (sign-ins and saved provider keys do not survive a restart of the cluster).",
    );
  }

  const servers = Array.from({ length: instances }, (_, i) => ({
    name: `app${i + 1}`,
    port: firstPort + i,
  }));

  // Unindented and ending in a newline: HAProxy refuses a last line without one.
  const config = `# Written by scripts/cluster.mjs; the same backend rules as compose.yaml's haproxy.cfg.
global
  # Every polling client holds a connection to HAProxy and, while its poll waits, one to an
  # instance: about two file descriptors a client. HAProxy stops keeping idle connections to
  # the instances once 20 % of its descriptors are in use (tune.pool-low-fd-ratio), which at
  # maxconn 4096 came at about 800 clients: from then on every poll opened a new connection,
  # the instances' accept queues overflowed, dropped connections waited a second for their
  # retry, and the readiness check timed out. 8,000 connections (16,000 descriptors) and
  # idle connections kept up to 75 % of them.
  maxconn 8000
  tune.pool-low-fd-ratio 75
  tune.pool-high-fd-ratio 90

defaults
  mode http
  option forwardfor
  # Connections to the instances stay open between requests: socket.io's polling sends a
  # request per event batch, and a new connection for each was most of an instance's work.
  option http-keep-alive
  # Any client's request may use any idle connection to the instance: they keep no state per
  # connection, and a poll answered frees one for the next poll of any client.
  http-reuse always
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  # socket.io's WebSocket and long-polling requests
  timeout tunnel 1h
  timeout http-keep-alive 10s

frontend cohort
  bind ${host}:${port}
  default_backend apps

backend apps
  balance roundrobin
  # Sticky sessions: socket.io's polling transport must reach the instance holding its session.
  cookie COHORT_INSTANCE insert indirect nocache httponly
  # Readiness, not liveness: an instance whose database is down or that drains gets no traffic.
  option httpchk GET /api/health/ready
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
  # A check may take up to 5 s (the default is inter, 1 s): a machine that stalls for a second
  # would otherwise take every instance out at once; a stopped instance still fails at once.
  timeout check 5s
${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check cookie ${s.name}`).join("\n")}
`;
  const configPath = path.join(clusterDir, "haproxy.cfg");
  writeFileSync(configPath, config);

  await buildIfStale();

  const children = new Set();
  function prefixLines(stream, name, out) {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  }

  function startInstance({ name, port: instancePort }) {
    const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
      cwd: root,
      env: {
        ...process.env,
        ...shared,
        PORT: String(instancePort),
        HOST: "127.0.0.1",
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
        TRUST_PROXY: "true",
        DATA_DIR: dataDir,
        LOG_FORMAT: process.env.LOG_FORMAT ?? (process.stdout.isTTY ? "pretty" : "json"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    prefixLines(child.stdout, name, process.stdout);
    prefixLines(child.stderr, name, process.stderr);
    child.on("exit", (code, signal) => {
      children.delete(child);
      if (!stopping) console.log(`cluster: ${name} exited (${signal ?? code})`);
    });
    return child;
  }

  async function waitReady(instancePort, timeoutMs = 120_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      try {
        const response = await fetch(`http://127.0.0.1:${instancePort}/api/health/ready`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the instance on port ${instancePort} was not ready within ${timeoutMs} ms`);
  }

  let stopping = false;
  async function stop(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`cluster: ${signal}: draining the instances, then HAProxy`);
    // Each instance drains on SIGTERM (stops accepting, lets running work finish, hands runs on).
    for (const child of children) if (child !== proxy) child.kill("SIGTERM");
    const deadline = Date.now() + 60_000;
    while ([...children].some((c) => c !== proxy) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // HAProxy stops softly; once it has, nothing is left running and the script ends.
    proxy?.kill("SIGUSR1");
  }
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  // The first instance migrates the database; the others start once it is ready.
  let proxy = null;
  try {
    const [first, ...rest] = servers;
    startInstance(first);
    await waitReady(first.port);
    for (const server of rest) startInstance(server);
    await Promise.all(rest.map((s) => waitReady(s.port)));
  } catch (error) {
    console.error(`cluster: ${error.message}`);
    process.exitCode = 1;
    await stop("start-up failure");
    return;
  }
  proxy = spawn(haproxy ?? "haproxy", ["-db", "-f", configPath], { stdio: "inherit" });
  children.add(proxy);
  proxy.on("exit", (code) => {
    children.delete(proxy);
    if (!stopping) {
      console.error(`cluster: HAProxy exited (${code})`);
      process.exitCode = 1;
      void stop("HAProxy exit");
    }
  });
  console.log(
    `cluster: ${instances} instance(s) on ports ${servers.map((s) => s.port).join(", ")} behind HAProxy on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`,
  );
}

const problem = setupProblem();
if (problem) {
  process.stderr.write(`npm run cluster: ${problem}\n`);
  process.exitCode = 1;
} else {
  await runCluster();
}

import type { Worker } from "node:worker_threads";
import { ConfigError, loadConfig } from "./config";
import { createDb } from "./db/client";

/**
 * The process, after main.ts: parse config, build, listen, and shut down cleanly on a
 * signal. The database opens first, and the rest of the server (Fastify, socket.io, every
 * module and their packages: a separate chunk of the build) loads while it does: the
 * embedded database's thread starts PostgreSQL in the meantime, which was half of a restart.
 * `embeddedThread` is that thread, already started by main.ts (decision 085).
 */
export async function serve(embeddedThread: Worker | undefined) {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const opening = createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedThread,
  });
  // Awaited once the app has loaded; a failure to open is reported there.
  opening.catch(() => {});
  const { buildApp } = await import("./app");
  const db = await opening;
  const logStream = (await readableLogs(config.logFormat)) ?? undefined;
  const app = await buildApp(config, { db, ...(logStream ? { logStream } : {}) });
  // A burst of new connections (a balancer opening them for a wave of polls) waits in the
  // queue instead of being dropped: a dropped SYN is retried only after a second.
  await app.listen({ port: config.port, host: config.host, backlog: 4096 });
  const database = app.db.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL";
  app.log.info(
    { url: config.publicUrl, database, redis: Boolean(config.redisUrl) },
    `Cohort is ready on http://${config.host}:${config.port}`,
  );

  let closing = false;
  // A second signal (Ctrl-C again) ends the grace period: running work is stopped at once.
  let endGrace = () => {};
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, "second signal: stopping the running work now");
      endGrace();
      return;
    }
    closing = true;
    // Draining: readiness answers 503 at once, so the load balancer stops sending new work
    // here, while running runs get SHUTDOWN_GRACE_SECONDS to finish. What still runs after
    // that is handed on by app.close() (decision 047): its calls stopped and their holds
    // released, the run left to another instance through the queue (or to the next start).
    app.lifecycle.draining = true;
    const grace = config.shutdownGraceMs;
    app.log.info(
      { signal, grace_s: grace / 1000 },
      "draining: no new traffic, running work finishes",
    );
    const finished = await Promise.race([
      app.orchestration.control.idle().then(() => true),
      new Promise<false>((resolve) => {
        endGrace = () => resolve(false);
        setTimeout(() => resolve(false), grace).unref();
      }),
    ]);
    if (!finished) {
      app.log.warn(
        { runs: app.orchestration.control.activeRunIds().length },
        "grace period over: handing the runs still running on",
      );
    }
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/**
 * JSON lines for machines (a log collector, a file, CI); readable lines through pino-pretty
 * when a person watches the terminal, or when asked for. The telemetry capture still reads
 * the JSON line before it is prettified.
 */
async function readableLogs(format: "auto" | "json" | "pretty") {
  const pretty = format === "pretty" || (format === "auto" && process.stdout.isTTY === true);
  if (!pretty) return null;
  const { default: pinoPretty } = await import("pino-pretty");
  return pinoPretty({
    colorize: process.stdout.isTTY === true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,service",
  });
}

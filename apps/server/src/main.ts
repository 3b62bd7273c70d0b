import { ConfigError, loadConfig } from "./config";
import { createDb } from "./db/client";

/**
 * The process entry: parse config, build, listen, and shut down cleanly on a signal. The
 * database opens first, and the rest of the server (Fastify, socket.io, every module and
 * their packages: a separate chunk of the build) loads while it does: the embedded
 * database's thread starts PostgreSQL in the meantime, which was half of a restart.
 */
async function main() {
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
  const opening = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Awaited once the app has loaded; a failure to open is reported there.
  opening.catch(() => {});
  const { buildApp } = await import("./app");
  const db = await opening;
  const app = await buildApp(config, { db });
  await app.listen({ port: config.port, host: config.host });
  const database = app.db.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL";
  app.log.info(
    { url: config.publicUrl, database, redis: Boolean(config.redisUrl) },
    `Cohort is ready on http://${config.host}:${config.port}`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
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

main().catch((error: unknown) => {
  process.stderr.write(
    `Cohort failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});

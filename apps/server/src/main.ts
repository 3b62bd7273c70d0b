import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";

/** The process entry: parse config, build, listen, and shut down cleanly on a signal. */
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
  const app = await buildApp(config);
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

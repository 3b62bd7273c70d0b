import { startPgliteThread } from "./db/pglite-client";

/**
 * The process entry. On the embedded database (no DATABASE_URL: config.ts) its thread starts
 * first, before the configuration and the rest of the server load: loading PGlite and starting
 * its thread overlaps with them instead of following them (decision 085). It opens the data
 * directory once serve.ts has read the configuration.
 */
const embeddedThread = process.env.DATABASE_URL === undefined ? startPgliteThread() : undefined;

try {
  const { serve } = await import("./serve");
  await serve(embeddedThread);
} catch (error) {
  process.stderr.write(
    `Cohort failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
}
